/** An amount in integer minor units (cents) of an ISO 4217 currency: money is never a float. */
export type Money = { amount: number; currency: string };
