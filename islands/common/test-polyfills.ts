// jsdom lacks TextEncoder, which react-router 7 needs at import time. Tests that render a
// router import this module before anything else (jest runs them as CommonJS in Node).
declare const require: (id: string) => { TextEncoder: unknown; TextDecoder: unknown };
const util = require('node:util');
Object.assign(globalThis, { TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder });
export {};
