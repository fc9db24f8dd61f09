// `node scripts/long-functions.mjs [folder…] [--max=80]`: lists the functions longer than the style
// rule allows (developers' guide: no function over ~80 lines in src/), longest first. The files are
// parsed by the TypeScript compiler of the project (TypeScript 7's API, run as a child process), so
// strings, comments, regular expressions and type annotations cannot confuse the count. A function's
// lines run from its first token to its closing brace, nested functions included (a factory of
// closures counts whole). Files are those of tsconfig.json under the given folders (default src);
// tests are left out unless --tests is given (a `describe` callback is a list of cases, not a
// function the rule is about). Files over --max-file lines (default 400) are listed too.
// Exits 1 when one is found, so it can guard a change.
import { relative, resolve, sep } from 'node:path';
import { API } from 'typescript/unstable/sync';
import { computeLineStarts, isArrowFunction, isConstructorDeclaration, isFunctionDeclaration, isFunctionExpression,
  isGetAccessorDeclaration, isMethodDeclaration, isSetAccessorDeclaration, skipTrivia } from 'typescript/unstable/ast';

const args = process.argv.slice(2);
const max = Number(args.find((a) => a.startsWith('--max='))?.slice(6) ?? 80);
const maxFile = Number(args.find((a) => a.startsWith('--max-file='))?.slice(11) ?? 400);
const withTests = args.includes('--tests');
const roots = args.filter((a) => !a.startsWith('--'));
if (roots.length === 0) roots.push('src');
const folders = roots.map((r) => resolve(r) + sep);

const isFunction = (n) => isFunctionDeclaration(n) || isFunctionExpression(n) || isArrowFunction(n) || isMethodDeclaration(n)
  || isConstructorDeclaration(n) || isGetAccessorDeclaration(n) || isSetAccessorDeclaration(n);

/** Line (0-based) of a position, by binary search in the line starts. */
function lineOf(starts, pos) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function nameOf(node, text) {
  // An arrow or function expression takes the name of what it is assigned to, when there is one.
  const named = node.name ?? node.parent?.name;
  if (named) return text.slice(skipTrivia(text, named.pos), named.end);
  return isConstructorDeclaration(node) ? 'constructor' : '(anonymous)';
}

const api = new API({ cwd: process.cwd() });
const found = [];
const longFiles = [];
try {
  const program = api.updateSnapshot({ openProjects: ['tsconfig.json'] }).getProjects()[0].program;
  for (const fileName of program.getSourceFileNames()) {
    if (!folders.some((f) => resolve(fileName).startsWith(f))) continue;
    if (!withTests && /\.test\.[cm]?tsx?$/.test(fileName)) continue;
    const file = program.getSourceFile(fileName);
    const text = file.text;
    const starts = computeLineStarts(text);
    const fileLines = text.endsWith('\n') ? starts.length - 1 : starts.length;
    if (fileLines > maxFile) longFiles.push({ path: relative(process.cwd(), fileName), lines: fileLines });
    const visit = (node) => {
      if (isFunction(node) && node.body) {
        const lines = lineOf(starts, node.end) - lineOf(starts, skipTrivia(text, node.pos)) + 1;
        if (lines > max) found.push({ path: relative(process.cwd(), fileName), line: lineOf(starts, skipTrivia(text, node.pos)) + 1, lines, name: nameOf(node, text) });
      }
      node.forEachChild(visit);
    };
    file.forEachChild(visit);
  }
} finally {
  api.close();
}
found.sort((a, b) => b.lines - a.lines);
longFiles.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(5)} lines  ${f.path}:${f.line}  ${f.name}`);
for (const f of longFiles) console.log(`${String(f.lines).padStart(5)} lines  ${f.path} (the whole file)`);
const under = roots.join(', ');
console.log(`${found.length} function(s) over ${max} lines and ${longFiles.length} file(s) over ${maxFile} lines under ${under}${withTests ? '' : ', tests left out'}.`);
process.exitCode = found.length + longFiles.length === 0 ? 0 : 1;
