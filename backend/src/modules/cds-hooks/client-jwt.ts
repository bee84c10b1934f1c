import { Injectable } from '@nestjs/common';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWTVerifyGetKey } from 'jose';
import { DomainError } from '../../common/errors';
import { CdsClientsService } from './cds-clients.service';
import { CDS_SERVICE_IDS } from '@cds/contracts';
import type { HookCaller } from './patient-view.service';
import { CdsHooksRepository, type VerifiableClient } from './cds-hooks.repository';
import { CLIENT_JWT_ALGORITHMS, jwkAlgorithm } from './jwk-algorithm';

/** CDS Hooks 2.0: a client JWT lives at most 5 minutes. */
const MAX_LIFETIME_S = 300;
/** Clock difference tolerated between the EHR and us, for exp and iat alike. */
const CLOCK_TOLERANCE_S = 30;
const ALGORITHMS: string[] = [...CLIENT_JWT_ALGORITHMS];

/** Imported client keys kept per process (a handful of EHRs; the bound only guards against churn). */
const MAX_KEYS = 100;

const refuse = (message: string) => new DomainError('invalid_client_jwt', message);
/**
 * One answer for an unknown or inactive issuer and for a signature that does not match a known one's key:
 * a caller who cannot sign as a client learns nothing about which issuers are registered.
 */
const NOT_A_CLIENT = 'The client JWT was refused: it is not signed with the key of a registered, active CDS client';
/** A jti already used: refused, and known to be recorded. */
export class ReplayedJwt extends DomainError {
  constructor() {
    super('invalid_client_jwt', 'The client JWT was already used (jti replayed)');
  }
}

/** A verified client JWT: who called, and the token's id and how long it must be remembered. */
export interface VerifiedClientJwt extends HookCaller {
  jti: string;
  jti_expires_at: Date;
}

/** The active client registered with an issuer, if any. */
export type ClientLookup = (issuer: string) => VerifiableClient | null | Promise<VerifiableClient | null>;

/**
 * Verifies the client JWT of a CDS Hooks request: a registered, active issuer allowed to call the
 * service; signed with its registered key; `aud` = the service URL; `exp` at most 5 minutes ahead;
 * `jti` never seen before (kept in PostgreSQL until the token has expired).
 */
@Injectable()
export class ClientJwtVerifier {
  private readonly jwksByUrl = new Map<string, JWTVerifyGetKey>();
  private readonly keysByJwk = new Map<string, Promise<CryptoKey | Uint8Array>>();

  constructor(
    private readonly clients: CdsClientsService,
    private readonly repo: CdsHooksRepository,
  ) {}

  /** Verifies against the client as stored now, and records the jti at once. */
  async verifyOnce(authorization: string | undefined, serviceId: string, audience: string | string[]): Promise<HookCaller> {
    const v = await this.verify(authorization, serviceId, audience, (iss) => this.clients.byIssuer(iss));
    await this.record(v);
    return { issuer: v.issuer, allowed_fhir_servers: v.allowed_fhir_servers };
  }

  /** Records a verified token's jti on its own; a second use of one still unexpired is a replay. */
  async record(v: VerifiedClientJwt): Promise<void> {
    // Forget expired ids now and then, not on every request.
    if (!(await this.repo.recordJti(v.issuer, v.jti, v.jti_expires_at, Math.random() < 0.05))) throw new ReplayedJwt();
  }

  /**
   * Verifies against the client `clientOf` gives; the jti is not recorded here: the caller records it
   * (a patient-view call, in the statement that records the call).
   */
  async verify(
    authorization: string | undefined,
    serviceId: string,
    audience: string | string[],
    clientOf: ClientLookup,
  ): Promise<VerifiedClientJwt> {
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization ?? '');
    if (!match) throw refuse('A CDS Hooks request needs Authorization: Bearer <client JWT>');
    const token = match[1];
    let iss: unknown;
    let alg: unknown;
    try {
      iss = decodeJwt(token).iss;
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw refuse('The client JWT cannot be read');
    }
    // Before the issuer is looked up, so the answer is the same for every issuer.
    if (typeof alg !== 'string' || !ALGORITHMS.includes(alg))
      throw refuse(`The client JWT was refused: the algorithm is not one of ${ALGORITHMS.join(', ')}`);
    if (typeof iss !== 'string' || iss === '') throw refuse('The client JWT has no iss');
    const client = await clientOf(iss);
    if (!client) throw refuse(NOT_A_CLIENT);

    let payload;
    try {
      const keyAlg = client.jwk ? jwkAlgorithm(client.jwk) : undefined;
      // A stored RSA key without alg (registered before alg was required) verifies nothing.
      if (client.jwk && !keyAlg) throw refuse(NOT_A_CLIENT);
      const key = client.jwk ? await this.imported(client.jwk, keyAlg!) : this.jwks(client.jwks_url!);
      ({ payload } = await jwtVerify(token, key as never, {
        issuer: iss,
        audience,
        algorithms: keyAlg ? [keyAlg] : ALGORITHMS,
        requiredClaims: ['iss', 'aud', 'exp', 'jti'],
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (e) {
      if (e instanceof DomainError) throw e;
      throw refuse(reason(e));
    }
    // Only a caller who signed as this client learns what it may call.
    if ((CDS_SERVICE_IDS as readonly string[]).includes(serviceId) && !client.allowed_services.includes(serviceId))
      throw refuse(`This CDS client may not call the ${serviceId} service`);
    const now = Math.floor(Date.now() / 1000);
    // jose checks iat only against a maximum age; a token issued in the future is a wrong clock or a forged lifetime.
    if (payload.iat !== undefined && payload.iat > now + CLOCK_TOLERANCE_S)
      throw refuse(`The client JWT was refused: iat is more than ${CLOCK_TOLERANCE_S} s in the future`);
    if (payload.exp! > now + MAX_LIFETIME_S + CLOCK_TOLERANCE_S) throw refuse('The client JWT expires more than 5 minutes from now');
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 500) throw refuse('The client JWT needs a jti');
    return {
      issuer: iss,
      allowed_fhir_servers: client.allowed_fhir_servers,
      jti: payload.jti,
      jti_expires_at: new Date((payload.exp! + CLOCK_TOLERANCE_S) * 1000),
    };
  }

  /** A registered public JWK, imported once: keyed by its content, so an edited key is imported afresh. */
  private imported(jwk: Record<string, unknown>, alg: string): Promise<CryptoKey | Uint8Array> {
    const id = JSON.stringify(jwk);
    let key = this.keysByJwk.get(id);
    if (!key) {
      if (this.keysByJwk.size >= MAX_KEYS) this.keysByJwk.clear();
      key = importJWK(jwk as never, alg);
      key.catch(() => this.keysByJwk.delete(id));
      this.keysByJwk.set(id, key);
    }
    return key;
  }

  private jwks(url: string): JWTVerifyGetKey {
    let set = this.jwksByUrl.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
      this.jwksByUrl.set(url, set);
    }
    return set;
  }
}

/**
 * What a failed verification tells the caller. jose checks the signature before any claim, so a claim is
 * named only to a caller holding a client's key; a wrong key or algorithm reads like an unknown issuer.
 */
function reason(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  const claim = (e as { claim?: unknown }).claim;
  if (code === 'ERR_JWT_EXPIRED') return 'The client JWT was refused: it has expired';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'aud') return 'The client JWT was refused: aud is not this service URL';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return `The client JWT was refused: claim ${String(claim)} is invalid or missing`;
  if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC')
    return 'The client JWT was refused: the registered JWKS could not be fetched';
  return NOT_A_CLIENT;
}
