import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_NODE_FLAGS } from './node-flags';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

// The API is started in three places; each must run it with the flags its figures were measured with.
describe('the Node flags the API runs with', () => {
  it('npm start passes them', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`node ${API_NODE_FLAGS.join(' ')} backend/dist/main.js`);
  });

  it('the image and docker-compose pass them', () => {
    const argv = JSON.stringify(['node', ...API_NODE_FLAGS, 'backend/dist/main.js']);
    expect(read('Dockerfile')).toContain(`CMD ${argv.replaceAll(',', ', ')}`);
    expect(read('docker-compose.yml')).toContain(`command: ${argv.replaceAll(',', ', ').replaceAll('"', "'")}`);
  });

  it('this Node accepts them', () => {
    const out = execFileSync(process.execPath, [...API_NODE_FLAGS, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('ok');
  });
});
