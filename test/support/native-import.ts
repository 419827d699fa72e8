import vm from 'node:vm';

/**
 * `import()` as Node itself runs it, outside jest's module registry: for packages that ship ES
 * modules only with an `import`-only `exports` map (kubernetes-models, @prometheus-io/lezer-promql),
 * which jest's CommonJS resolution cannot load.
 */
export const importNative: <T = any>(specifier: string) => Promise<T> = new vm.Script('(specifier) => import(specifier)', {
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
}).runInThisContext();
