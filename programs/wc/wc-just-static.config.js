// Build config for the just-static variant. The harness copies this file beside the sync
// program as `wc-just-sync.config.js`, which is the name `just build wc-just-sync.js` looks for;
// `main` makes the program itself the entry point instead of the runtime's bootstrap.
module.exports = { main: 'wc-just-sync.js' }
