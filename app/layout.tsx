import type { Metadata } from "next";
import { Nav } from "@/components/ui/Nav";
import { VerifyNotice } from "@/components/account/VerifyNotice";
import { sessionUserId } from "@/server/accounts/auth";
import { TRPCReactProvider } from "@/trpc/react";
import "./globals.css";

// Every page shows the session's navigation: nothing is prerendered at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "QR Records",
  description: "Static and dynamic QR codes with scan analytics and a public API",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const userId = await sessionUserId();
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>
          <Nav loggedIn={userId !== null} />
          <main className="main">
            {userId && <VerifyNotice userId={userId} />}
            {children}
          </main>
        </TRPCReactProvider>
        <footer className="footer">
          {/* The DB-IP Lite licence (CC BY 4.0) asks for this link where its results are used. */}
          <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
        </footer>
      </body>
    </html>
  );
}
