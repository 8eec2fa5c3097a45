// tsx's command line makes an IPC folder `tsx-<uid>` in the temporary directory for the apps the
// e2e suites run, and leaves it behind empty. Removed here, and only when empty, so that a test
// run leaves nothing in TMPDIR.
const { readdirSync, rmdirSync } = require('node:fs');
const { tmpdir, userInfo } = require('node:os');
const path = require('node:path');

module.exports = async () => {
  const dir = path.join(tmpdir(), `tsx-${userInfo().uid}`);
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not there, or in use: nothing of ours to remove
  }
};
