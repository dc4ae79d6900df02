/** The encryption context of an endpoint's secret: a ciphertext moved to another endpoint fails. */
export const secretContext = (endpointId: string) => `webhook-secret:${endpointId}`;
