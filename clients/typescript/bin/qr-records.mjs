#!/usr/bin/env node
// The qr-records command line. It runs the package's TypeScript sources through tsx's loader,
// in this process (no build step, and a signal to this process reaches the command itself).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
