import vm from 'node:vm';
it('native', async () => {
  const t = Date.now();
  const nativeImport = new vm.Script('(specifier) => import(specifier)', { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext();
  const stack = await nativeImport('/work/wt/dist/cli/stack.js');
  console.log('keys', Object.keys(stack), Date.now() - t);
  const t2 = Date.now();
  await nativeImport('/work/wt/dist/cli/stack.js');
  console.log('again', Date.now() - t2);
});
