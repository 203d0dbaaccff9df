// Injected into the page's bundle (package.json's build): the checker's `Buffer` is the `buffer`
// package's (its trailing slash names the npm package, not Node's builtin, under --platform=node).
export { Buffer } from 'buffer/';
