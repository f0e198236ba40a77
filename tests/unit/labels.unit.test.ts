// The pages' errors name fields by their labels; /v1's messages are not touched (see the
// integration suite, which asserts them word for word).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FIELD_LABELS, inLabelWords } from "../../server/api/labels";

describe("page errors in the labels' words", () => {
  it("a field name that starts a message or a line becomes its label", () => {
    assert.equal(
      inLabelWords("destination_url must be an absolute http or https URL"),
      "Destination URL must be an absolute http or https URL",
    );
    assert.equal(inLabelWords("url must not contain credentials"), "URL must not contain credentials");
    assert.equal(
      inLabelWords("style.margin must be an integer from 0 to 16"),
      "Margin must be an integer from 0 to 16",
    );
    assert.equal(inLabelWords("style must be an object"), "Style must be an object");
    assert.equal(
      inLabelWords(
        "Line 1: name must be 1 to 200 characters (after trimming)\nLine 3: write it as: name, https://…\nLine 4: destination_url must be an absolute http or https URL",
      ),
      "Line 1: Name must be 1 to 200 characters (after trimming)\nLine 3: write it as: name, https://…\nLine 4: Destination URL must be an absolute http or https URL",
    );
    assert.equal(
      inLabelWords("The url is too long: choose a lower error correction"),
      "The URL is too long: choose a lower error correction",
    );
  });

  it("the same words elsewhere in a sentence, or already a label, stay as they are", () => {
    for (const message of [
      "No account has this email",
      "Team name must not be empty",
      "Name must be 1 to 200 characters",
      "A team keeps at least one admin",
      "urlish must stay",
    ]) {
      assert.equal(inLabelWords(message), message);
    }
    assert.ok(Object.values(FIELD_LABELS).every((label) => /^[A-Z]/.test(label)));
  });
});
