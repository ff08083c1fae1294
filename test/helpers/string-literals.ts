import ts from 'typescript'

/**
 * Every string a program can show: string literals, template pieces and JSX
 * text, found by parsing (so comments, identifiers and property names such as
 * `config.seed` are not strings). Works on TypeScript sources and on bundles.
 */
export function stringLiterals(fileName: string, source: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind)
  const out: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    )
      out.push(node.text)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return out
}
