#!/bin/sh
# Stands in for Prisma's Rust schema-engine binary, which cannot be downloaded here.
# `prisma generate` never starts it; anything that would (migrate, db push) must fail loudly
# instead of silently doing nothing. Use `npm run db:migrate` / `npm run db:create-migration`.
echo "The Rust schema engine is not available offline: use 'npm run db:migrate' (WebAssembly engine) instead." >&2
exit 1
