import { Type } from '@sinclair/typebox';

/** Path parameters every feature's operator routes share. */
export const HotelId = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
  description: 'catalogue hotel id',
});
export const HotelParams = Type.Object({ hotel: HotelId });

export const OperatorReservationParams = Type.Object({
  reservation: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'confirmation code',
    examples: ['R7K3M9Q2X'],
  }),
});
