// The lists' `search` (server/library/listFilters.ts) matches case-insensitively the same way on
// SQLite and PostgreSQL: SQLite's LIKE and lower() fold ASCII only, PostgreSQL's follow the
// database's locale. So the app folds: each code keeps its name and URL folded by JavaScript
// (`searchName`, `searchUrl`), written by the Prisma client with every write of the name or URL,
// and a search is folded the same way before a plain LIKE.

/** Text as `search` compares it: canonical composition ("é" one way), then Unicode lower case. */
export const foldForSearch = (text: string) => text.normalize("NFC").toLowerCase();

/** The characters a LIKE pattern gives a meaning (`%`, `_`, and the escape character `\`), escaped with `\`. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** The folded column of each searched column, per model. */
const FOLDED: Record<string, Record<string, string>> = {
  staticCode: { name: "searchName", url: "searchUrl" },
  dynamicCode: { name: "searchName", destinationUrl: "searchUrl" },
};

/** `data` with the folded column of each searched column it writes (a string, not an operation). */
function withFolded(columns: Record<string, string>, data: unknown): unknown {
  if (Array.isArray(data)) return data.map((row) => withFolded(columns, row));
  if (!data || typeof data !== "object") return data;
  const row = data as Record<string, unknown>;
  const folded = Object.entries(columns).flatMap(([column, target]) =>
    // A static code of another type than url has none: nothing left to find by the old one.
    typeof row[column] === "string"
      ? [[target, foldForSearch(row[column] as string)]]
      : row[column] === null
        ? [[target, ""]]
        : [],
  );
  return folded.length === 0 ? data : { ...row, ...Object.fromEntries(folded) };
}

type Operation = { args: Record<string, unknown>; query: (args: unknown) => Promise<unknown> };

/** `args` with the folded columns beside every name or URL its create, update or upsert writes. */
function folding(columns: Record<string, string>) {
  return ({ args, query }: Operation) => {
    if (!args) return query(args);
    const next = { ...args };
    for (const key of ["data", "create", "update"] as const)
      if (key in next) next[key] = withFolded(columns, next[key]);
    return query(next);
  };
}

/**
 * The Prisma client extension that keeps the folded columns: every create, update and upsert
 * of a code that writes its name or URL writes their folding too, whoever writes it. Only the
 * two code models pass through it; every other query goes straight to the client.
 */
export const searchFoldExtension = {
  query: {
    staticCode: { $allOperations: folding(FOLDED.staticCode) },
    dynamicCode: { $allOperations: folding(FOLDED.dynamicCode) },
  },
};
