// package.json declares Node >= 22.12 (oauth2-mock-server, file-type and basic-auth need it) and
// ships it as the `node` devDependency, which npm scripts and npx put first on PATH.
describe('the Node version the project declares', () => {
  it('runs the tests', () => {
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
  });
});
