/** The algorithms a client JWT may be signed with: the spec's (ES384, RS384) and their siblings. */
export const CLIENT_JWT_ALGORITHMS = ['ES384', 'RS384', 'ES256', 'RS256', 'ES512'] as const;

const EC_ALGORITHM_OF_CURVE: Record<string, string> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/**
 * The one algorithm a registered JWK verifies: its `alg`, or for an EC key without one the algorithm its
 * curve fixes. An RSA key without `alg` could be RS256 or RS384 (or PS*), so none is guessed: such a key
 * is refused at registration, and a stored one verifies nothing.
 */
export function jwkAlgorithm(jwk: Record<string, unknown>): string | undefined {
  if (typeof jwk.alg === 'string') return jwk.alg;
  if (jwk.kty === 'EC' && typeof jwk.crv === 'string') return EC_ALGORITHM_OF_CURVE[jwk.crv];
  return undefined;
}
