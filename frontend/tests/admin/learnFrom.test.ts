// The learning panel's "start learning from": the profiles in an admin's words, the server's
// refusal of an encoder folder for the field beside it, and the line once saved.
import { describe, expect, it } from "vitest";
import {
  encoderRefusal,
  learnFromSaved,
  PROFILE_LABELS,
  PROFILES,
  profileOf,
} from "../../src/admin/suggestions/learnFrom";
import { ApiError, NetworkError } from "../../src/api/http";

describe("the training profiles", () => {
  it("offers both, in an admin's words", () => {
    expect(PROFILES).toEqual(["default", "scico-b2"]);
    expect(PROFILES.map((p) => PROFILE_LABELS[p])).toEqual([
      "default",
      "SciCo B.2 recipe (batch 128, linear head, fp32)",
    ]);
  });

  it("reads the saved profile as the select's value", () => {
    expect(profileOf({ learn_profile: "scico-b2" })).toBe("scico-b2");
    expect(profileOf({ learn_profile: "default" })).toBe("default");
  });
});

describe("a refused encoder folder", () => {
  it("is the server's reason, without the parameter's name the field already says", () => {
    const refused = new ApiError(422, {
      error: "model_path_refused",
      message:
        "learn_encoder: '/etc' is not inside the model folders this server allows (/srv/models). Put the model there, or add its folder to MODEL_PATHS_ALLOWED.",
      parameter: "learn_encoder",
      allowed: ["/srv/models"],
    });
    expect(encoderRefusal(refused)).toBe(
      "'/etc' is not inside the model folders this server allows (/srv/models). Put the model there, or add its folder to MODEL_PATHS_ALLOWED.",
    );
  });

  it("takes a field refusal's reasons too", () => {
    const refused = new ApiError(400, {
      error: "invalid",
      message: "Invalid input.",
      fields: { learn_encoder: ["Not a valid string."] },
    });
    expect(encoderRefusal(refused)).toBe("Not a valid string.");
  });

  it("leaves any other failure to the panel's line", () => {
    const profile = new ApiError(400, {
      error: "invalid",
      message: "Invalid input.",
      fields: { learn_profile: ["No."] },
    });
    const otherPath = new ApiError(422, {
      error: "model_path_refused",
      message: "model_dir: no",
      parameter: "model_dir",
    });
    expect(encoderRefusal(profile)).toBeNull();
    expect(encoderRefusal(otherPath)).toBeNull();
    expect(encoderRefusal(new NetworkError())).toBeNull();
  });
});

describe("once saved", () => {
  it("says the folder as the server resolved it, or the packaged MiniLM", () => {
    expect(
      learnFromSaved({ learn_encoder: "/srv/models/longformer", learn_profile: "scico-b2" }),
    ).toBe(
      "Retraining starts from /srv/models/longformer, with the SciCo B.2 recipe (batch 128, linear head, fp32) training profile.",
    );
    expect(learnFromSaved({ learn_encoder: "", learn_profile: "default" })).toBe(
      "Retraining starts from the packaged MiniLM, with the default training profile.",
    );
  });
});
