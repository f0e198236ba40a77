import { handleShortLink } from "@/server/scan/redirect";

export const dynamic = "force-dynamic";

const handler = async (req: Request, { params }: { params: Promise<{ code: string }> }) =>
  handleShortLink(req, (await params).code);

// POST: the password form of a protected code.
export { handler as GET, handler as HEAD, handler as POST };
