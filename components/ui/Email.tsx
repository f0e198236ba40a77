// An email address that may wrap: a line break is offered after its @ and before each of its
// dots, so a long address breaks there rather than in the middle of a word.
import { Fragment } from "react";

export function Email({ address }: { address: string }) {
  const pieces = address.split(/(?<=@)|(?=\.)/);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
