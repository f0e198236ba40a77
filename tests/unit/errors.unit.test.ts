// The one error table: every code's status and tRPC code, how anything thrown is read, and
// that a code outside the table does not compile.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";
import { z } from "zod";
import { DomainError, domainErrorOf, ERROR_TABLE, fromZodIssues, isKeyGuess } from "../../server/platform/errors";

describe("error table", () => {
  it("maps every code to the contract's status and a tRPC code", () => {
    const statuses = Object.fromEntries(Object.entries(ERROR_TABLE).map(([code, m]) => [code, m.status]));
    assert.deepEqual(statuses, {
      invalid: 400,
      missing_key: 401,
      invalid_key: 401,
      unauthenticated: 401,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      code_in_use: 409,
      gone: 410,
      precondition_failed: 412,
      idempotency_mismatch: 422,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      internal: 500,
      database_unavailable: 503,
    });
    for (const mapping of Object.values(ERROR_TABLE)) assert.match(mapping.trpc, /^[A-Z_]+$/);
    assert.equal(new DomainError("gone", "Gone").status, 410);
  });

  it("decides a key guess by code, whatever the message says", () => {
    assert.equal(isKeyGuess(new DomainError("missing_key", "reworded")), true);
    assert.equal(isKeyGuess(new DomainError("invalid_key", "Invalid API key")), true);
    assert.equal(isKeyGuess(new DomainError("unauthenticated", "Invalid API key")), false);
    assert.equal(isKeyGuess(new Error("Missing API key")), false);
  });

  it("reads a domain error itself, as a wrapper's cause, or from a zod failure; a fault is null", () => {
    const domain = new DomainError("conflict", "taken");
    assert.equal(domainErrorOf(domain), domain);
    assert.equal(domainErrorOf(new Error("wrapped", { cause: domain })), domain);
    const parsed = z.object({ limit: z.number({ error: "limit must be a number" }) }).safeParse({ limit: "x" });
    const fromZod = domainErrorOf(parsed.error);
    assert.deepEqual([fromZod?.code, fromZod?.message], ["invalid", "limit must be a number"]);
    assert.equal(domainErrorOf(new Error("boom")), null);
    assert.equal(
      domainErrorOf(new Error("output check", { cause: parsed.error })),
      null,
      "a zod failure inside a fault stays a fault",
    );
    assert.equal(domainErrorOf("text"), null);
  });

  it("batch issues become errors by index, the first of each item; any other issue is one error", () => {
    const batch = fromZodIssues([
      { path: ["qrcodes", 2, "url"], message: "url bad" },
      { path: ["qrcodes", 0, "name"], message: "name bad" },
      { path: ["qrcodes", 2, "name"], message: "second of item 2" },
    ]);
    assert.deepEqual(batch.items, [
      { index: 0, error: "name bad" },
      { index: 2, error: "url bad" },
    ]);
    const top = fromZodIssues([
      { path: ["qrcodes", 1, "url"], message: "item" },
      { path: ["qrcodes"], message: "qrcodes must hold at least 1 item" },
    ]);
    assert.deepEqual([top.items, top.message], [undefined, "qrcodes must hold at least 1 item"]);
    assert.equal(fromZodIssues([]).message, "Invalid request");
  });

  it("an unknown code does not compile", () => {
    const file = path.resolve("tests/unit/unknown-code.check.ts");
    const source = `import { DomainError } from "../../server/platform/errors";\nexport const e = new DomainError("teapot", "I am a teapot");\n`;
    const host = ts.createCompilerHost({
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
    });
    const readFile = host.readFile;
    host.readFile = (name) => (path.resolve(name) === file ? source : readFile(name));
    host.fileExists = (
      (exists) => (name: string) =>
        path.resolve(name) === file || exists(name)
    )(host.fileExists);
    const program = ts.createProgram(
      [file],
      {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
      },
      host,
    );
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file && path.resolve(d.file.fileName) === file);
    assert.equal(errors.length, 1, errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n"));
    assert.match(ts.flattenDiagnosticMessageText(errors[0].messageText, "\n"), /"teapot"/);
  });
});
