// The harness copies this file beside wc-just-sync.js as wc-just-sync.config.js, the name `just build wc-just-sync.js` looks for.
// `main` makes the program itself the binary's entry point instead of the runtime's bootstrap
// (just.js), so only the modules it loads (net, sys) are linked in: a smaller binary and RSS.
module.exports = { main: 'wc-just-sync.js' }
