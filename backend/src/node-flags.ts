/**
 * The Node flags the API runs with: package.json's start script, the Dockerfile and
 * docker-compose.yml pass them (a unit test holds all three to this list), the benches fork their
 * API processes with them, and the tests that start real API processes do too. Both cut the CPU a
 * request costs (docs/benchmarks.md, "Node flags and a prepared recording statement"):
 * - AsyncLocalStorage (the request id on every log line) on async context frames, Node 24's default:
 *   on Node 22 it otherwise runs a hook on every promise created;
 * - a 64 MB young-generation semi-space: fewer scavenges, each of which copies the objects of every
 *   request still in flight.
 */
export const API_NODE_FLAGS: readonly string[] = ['--experimental-async-context-frame', '--max-semi-space-size=64'];
