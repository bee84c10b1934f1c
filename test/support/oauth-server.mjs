// A real OAuth2/OpenID Connect server on loopback for the Google sign-in tests.
// Prints its issuer URL on stdout, then serves until killed.
import { OAuth2Server } from 'oauth2-mock-server';

const profile = JSON.parse(process.env.OAUTH_PROFILE ?? '{}');
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
await server.start(0, '127.0.0.1');
server.service.on('beforeUserinfo', (res) => {
  res.body = profile;
});
process.stdout.write(`${server.issuer.url}\n`);
process.on('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
