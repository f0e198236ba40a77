/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
