// A plugin's push written on an SQLite file, for the tests and benches that
// seed one (sqlite-push.ts; records are read through record-queries.ts).

export { writePluginPush } from "./sqlite-push.ts";
