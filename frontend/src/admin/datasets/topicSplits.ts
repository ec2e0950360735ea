// Each topic's split, for the topics page: loaded beside the topic rows (the splits are the
// dataset release's, datasets/api) and changed one topic at a time.

import { ref, type Ref } from "vue";
import { errorText } from "../format";
import { datasetsApi } from "./datasetsApi";
import { refusalText } from "./refusal";

export interface TopicSplits {
  splits: Ref<Map<number, string>>;
  names: Ref<string[]>;
  error: Ref<string | null>;
  /** The last save, said on screen ("Topic 12 is now in dev."). */
  saved: Ref<string | null>;
  load: () => Promise<void>;
  change: (topic: number, split: string, label?: string) => Promise<void>;
}

export function useTopicSplits(project: () => number): TopicSplits {
  const splits = ref(new Map<number, string>());
  const names = ref<string[]>([]);
  const error = ref<string | null>(null);
  const saved = ref<string | null>(null);

  async function load() {
    try {
      const answer = await datasetsApi.splits(project());
      splits.value = new Map(answer.topics.map((t) => [t.id, t.split]));
      names.value = answer.names;
      error.value = null;
    } catch (e) {
      error.value = errorText(e);
    }
  }

  async function change(topic: number, split: string, label = String(topic)) {
    const previous = splits.value.get(topic) ?? "";
    const wanted = split.trim();
    if (wanted === previous) return;
    splits.value = new Map(splits.value).set(topic, wanted);
    saved.value = null;
    try {
      const answer = await datasetsApi.setSplit(topic, wanted);
      splits.value = new Map(splits.value).set(topic, answer.split);
      if (answer.split && !names.value.includes(answer.split))
        names.value = [...names.value, answer.split];
      error.value = null;
      saved.value = splitSaved(label, answer.split);
    } catch (e) {
      splits.value = new Map(splits.value).set(topic, previous);
      error.value = `Topic ${label} was not moved: ${refusalText(e)}`;
    }
  }

  return { splits, names, error, saved, load, change };
}

export function splitSaved(label: string, split: string): string {
  return split
    ? `Saved: topic ${label} is now in ${split}.`
    : `Saved: topic ${label} is in no split now.`;
}
