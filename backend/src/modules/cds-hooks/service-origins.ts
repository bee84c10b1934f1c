import type { AppConfig } from '../../config/app-config';

/**
 * The origins a CDS Hooks client JWT's aud may name, in order of preference for card links: PUBLIC_URL
 * alone when set; otherwise ALLOWED_ORIGINS, then http://localhost and http://127.0.0.1 on the port this
 * server listens on. Never the request's Host or X-Forwarded-*: a client chooses those, and a token
 * minted for another site, replayed with that site's Host, would otherwise pass and get its links.
 */
export function serviceOrigins(
  config: Pick<AppConfig, 'publicUrl' | 'publicUrlConfigured' | 'allowedOrigins'>,
  listenPort: number,
): string[] {
  if (config.publicUrlConfigured) return [new URL(config.publicUrl).origin];
  return [...new Set([...config.allowedOrigins, `http://localhost:${listenPort}`, `http://127.0.0.1:${listenPort}`])];
}

/**
 * The origin card links point at: the one the request arrived on (as Express reads it, believing
 * X-Forwarded-* only from TRUST_PROXY) when it is one of `origins`, else the first of them.
 */
export function linkOrigin(origins: readonly string[], arrivedOn: string | undefined): string {
  let arrived: string | undefined;
  try {
    arrived = arrivedOn ? new URL(arrivedOn).origin : undefined;
  } catch {
    arrived = undefined;
  }
  return arrived && origins.includes(arrived) ? arrived : origins[0];
}
