// What the agreement report leaves out, in words: practice topics, and the topics where
// metrics are undefined (nothing to score on either side), metrics with the same topics and
// reason on one line. Pure.

import type { AgreementReport } from "../../api/adminTypes";
import { plural } from "../format";
import { metricInfo } from "./metrics";

export interface LeftOutLine {
  key: string;
  text: string;
  topics: string[];
}

/** The topics named in a line: all of them up to five, else the first five and a count. */
function named(topics: readonly string[]): string {
  return topics.length <= 5
    ? topics.join(", ")
    : `${topics.slice(0, 5).join(", ")} and ${topics.length - 5} more`;
}

export function leftOutLines(report: AgreementReport): LeftOutLine[] {
  const lines: LeftOutLine[] = [];
  const { practice, undefined: undefinedTopics } = report.left_out;
  if (practice.topics.length) {
    lines.push({
      key: "practice",
      text: `${plural(practice.topics.length, "practice topic")} left out, ${named(practice.topics)}: ${practice.reason}`,
      topics: practice.topics,
    });
  }
  const groups = new Map<string, { metrics: string[]; topics: string[]; reason: string }>();
  for (const [metric, part] of Object.entries(undefinedTopics)) {
    const key = `${part.reason}\u0000${part.topics.join("\u0000")}`;
    const group = groups.get(key) ?? { metrics: [], topics: part.topics, reason: part.reason };
    group.metrics.push(metric);
    groups.set(key, group);
  }
  for (const [key, group] of groups) {
    const labels = group.metrics.map((m) => metricInfo(m).label).join(", ");
    const their = group.metrics.length === 1 ? "its" : "their";
    lines.push({
      key: `undefined:${key}`,
      text: `${labels} undefined on ${plural(group.topics.length, "topic")}, ${named(group.topics)} (${group.reason}): left out of ${their} AVG, MAX-micro and MAX-macro`,
      topics: group.topics,
    });
  }
  return lines;
}
