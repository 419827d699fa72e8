import path from 'node:path';
import ts from 'typescript';

export interface TypedObject {
  /** Where it comes from, for the messages. */
  label: string;
  /** The module declaring its interface (`kubernetes-models/apps/v1/Deployment`) and the interface (`IDeployment`). */
  module: string;
  type: string;
  object: unknown;
}

/**
 * What the Kubernetes schemas let pass (they allow fields they do not know): each object written as
 * an object literal of its kubernetes-models interface and type-checked by TypeScript, whose
 * excess-property check names every field the API does not have (a misspelt `readinesProbe` would
 * be silently dropped by a cluster's client-side apply). One line per object.
 */
export function typeProblems(objects: readonly TypedObject[]): string[] {
  const file = path.resolve('deploy/manifests.typecheck.ts');
  const source = objects
    .map((o, i) => `import type { ${o.type} as T${i} } from '${o.module}'; export const o${i}: T${i} = ${JSON.stringify(o.object)};`)
    .join('\n');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  const sourceFile = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, sourceFile).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${objects[line]?.label ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
