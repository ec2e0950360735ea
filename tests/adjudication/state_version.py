"""An annotator's loaded state as a consensus `Version`: the reference the product's
`adjudication/selectors/consensus_versions.py` (the versions read straight from the
database) is tested against, and the bench's way to build versions."""

from __future__ import annotations

from adjudication.domain.consensus import KeyLink, Version, VersionCluster
from annotation.domain.state import AnnotationState


def version_from_state(state: AnnotationState) -> Version:
    key = {id: (m.document, m.spans) for id, m in state.mentions.items() if not m.rejected}
    return Version(
        mentions=frozenset(key.values()),
        clusters={
            cluster.id: VersionCluster(
                frozenset(key[m] for m in cluster.members if m in key), cluster.label, cluster.note
            )
            for cluster in state.clusters.values()
        },
        edges=frozenset(state.edges),
        links=frozenset(
            KeyLink(link.type, key[link.anaphor], key[link.antecedent])
            for link in state.links
            if link.anaphor in key and link.antecedent in key
        ),
    )
