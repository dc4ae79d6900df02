/** The per-night inventory belongs to the hotel calendar now; booking keeps importing it from here. */
export {
  type InventoryChange,
  inventoryRepository,
  type NightShortage,
} from '../hotel-calendar/inventory.repository.ts';
