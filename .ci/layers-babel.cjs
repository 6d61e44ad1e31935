// How dependency-cruiser reads our TypeScript for `npm run check:layers`
// (.dependency-cruiser.cjs). It cannot call the TypeScript 7 compiler, which
// has no JavaScript API; Babel parses the files instead. Stripping the types
// would drop type-only imports, and the layer rules count those too: a type
// is as much a dependency as a value. So each file becomes just the list of
// modules it names (in an import, an export-from, an `import("…")` call or
// an `import("…")` type), one bare `import "…"` each.

/** Replaces a file's body with a bare import of every module it names. */
function keepOnlyImports({ types: t }) {
  return {
    name: "keep-only-imports",
    manipulateOptions(_options, parserOptions) {
      parserOptions.plugins.push("typescript");
    },
    visitor: {
      Program(program) {
        const named = new Set();
        const add = (node) => {
          if (t.isStringLiteral(node)) named.add(node.value);
          else if (t.isTSLiteralType(node)) add(node.literal);
        };
        program.traverse({
          "ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration"(path) {
            if (path.node.source) add(path.node.source);
          },
          TSImportType(path) {
            add(path.node.argument);
          },
          CallExpression(path) {
            if (t.isImport(path.node.callee)) add(path.node.arguments[0]);
          },
          ImportExpression(path) {
            add(path.node.source);
          },
        });
        program.node.directives = [];
        program.node.body = [...named].map((source) => t.importDeclaration([], t.stringLiteral(source)));
        program.skip();
      },
    },
  };
}

module.exports = { babelrc: false, configFile: false, plugins: [keepOnlyImports] };
