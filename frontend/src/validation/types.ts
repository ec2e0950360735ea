// The validation workspace's payloads, by the names its code uses (schema.d.ts is generated
// from validation/api/serializers.py).
import type { components } from "../api/schema";

type Schemas = components["schemas"];

export type ValidationPayload = Schemas["ValidationPayload"];
export type ValidationMention = Schemas["ValidationMention"];
export type ValidationCluster = Schemas["ValidationCluster"];
export type ValidationReason = Schemas["ValidationReason"];
export type ValidationDocument = Schemas["DocumentPayload"];
export type Verdict = Schemas["ValidationDecisionPayload"];
/** How the mentions are visited: least confident first, document order, or cluster by cluster. */
export type OrderMode = "confidence" | "document" | "cluster";
