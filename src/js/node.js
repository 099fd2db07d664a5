// The path older code imports the Node entry by (`orderpay/node.js` in a
// file URL): the default entry, which now loads itself everywhere.
export * from "./index.js";
export { default } from "./index.js";
