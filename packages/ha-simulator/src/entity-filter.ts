/**
 * HA's include/exclude entity filter (`helpers/entityfilter.py`), as
 * `subscribe_entities` takes it: `include` and `exclude`, each with
 * `domains`, `entity_globs` and `entities`. The cases and their order of
 * precedence are HA's.
 */
export interface FilterSide {
  domains: string[];
  entity_globs: string[];
  entities: string[];
}

/** fnmatch's translation: `*` any run, `?` one character, `[…]` a set, `[!…]` its complement; the whole id must match. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let set = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (set.startsWith("!")) set = `^${set.slice(1)}`;
        else if (set.startsWith("^")) set = `\\${set}`;
        out += `[${set}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^(?:${out})$`, "s");
}

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf("."));

/** The predicate HA's `convert_include_exclude_filter` builds, or undefined when nothing is filtered. */
export function entityFilter(include: FilterSide, exclude: FilterSide): ((entityId: string) => boolean) | undefined {
  const includeD = new Set(include.domains);
  const includeE = new Set(include.entities);
  const excludeD = new Set(exclude.domains);
  const excludeE = new Set(exclude.entities);
  const includeG = include.entity_globs.map(globToRegExp);
  const excludeG = exclude.entity_globs.map(globToRegExp);
  const includeGlob = (id: string) => includeG.some((g) => g.test(id));
  const excludeGlob = (id: string) => excludeG.some((g) => g.test(id));
  const haveInclude = includeD.size + includeE.size + includeG.length > 0;
  const haveExclude = excludeD.size + excludeE.size + excludeG.length > 0;

  if (!haveInclude && !haveExclude) return undefined;
  if (haveInclude && !haveExclude) return (id) => includeE.has(id) || includeD.has(domainOf(id)) || includeGlob(id);
  if (!haveInclude) return (id) => !(excludeE.has(id) || excludeD.has(domainOf(id)) || excludeGlob(id));
  if (includeD.size > 0 || includeG.length > 0) {
    return (id) => includeE.has(id) || (!excludeE.has(id) && (includeGlob(id) || (includeD.has(domainOf(id)) && !excludeGlob(id))));
  }
  if (excludeD.size > 0 || excludeG.length > 0) {
    return (id) => (excludeD.has(domainOf(id)) || excludeGlob(id) ? includeE.has(id) : !excludeE.has(id));
  }
  return (id) => includeE.has(id);
}
