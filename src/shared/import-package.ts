/**
 * Loads a package by a name in a variable, which neither tsc nor the bundler
 * follow: how the program reaches a package it may ship without (demo mode's
 * simulator and fake model server). Where the package itself is absent,
 * `missing()` says what to do; any other failure (a package present but not
 * built) is thrown as it is, naming the file.
 */
export async function importPackage<T>(name: string, missing: () => Error): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code === "ERR_MODULE_NOT_FOUND" && message?.includes(`Cannot find package '${name}'`)) throw missing();
    throw err;
  }
}
