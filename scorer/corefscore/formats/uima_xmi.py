"""UIMA CAS XMI (INCEpTION's native format), read and written with ``dkpro-cassis``.

The type system: the one given (``typesystem=``), else a ``TypeSystem.xml`` (or
``typesystem.xml``) beside the file (INCEpTION's XMI export holds one), else DKPro Core's
(cassis ships it). Types the XMI uses and the type system lacks (INCEpTION's
``webanno.custom.*`` layers) are inferred from the XMI itself: a type per element name, a
string feature per attribute, a reference feature where every value names another element.

What is read (into :mod:`cas_model`, then TopicData by :mod:`cas_topics`, as WebAnno TSV):
tokens and sentences (DKPro Core's); chains (a type with a ``first`` feature; links
followed by ``next``; the link type is the layer); relations (types with ``Governor`` and
``Dependent``); every other annotation type is a span layer with its primitive features.

Writing: one ``<topic>.xmi`` per topic when every topic has one document, else
``<topic>/<n>-<document>.xmi`` for every topic, and a ``TypeSystem.xml`` in each folder
(DKPro Core's plus the layers written), which INCEpTION's "UIMA CAS XMI" import takes
with the files.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any
from xml.etree import ElementTree

import cassis

from corefscore.corpus import TopicData
from corefscore.formats._io import PathOrStream, display_name
from corefscore.formats.cas_model import (
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    SENTENCE,
    TOKEN,
    CasChain,
    CasDocument,
    CasLink,
    CasRelation,
    CasSpan,
    chain_type,
    short,
)
from corefscore.formats.cas_topics import documents_to_topic, topic_to_documents
from corefscore.formats.errors import (
    FormatErrors,
    FormatWarning,
    ImportReport,
    Problems,
    Skipped,
)

XMI_NS = "http://www.omg.org/XMI"
XMI_ID = f"{{{XMI_NS}}}id"
CAS_NS = "http:///uima/cas.ecore"
ANNOTATION = "uima.tcas.Annotation"
NOT_SPANS = frozenset(
    {
        TOKEN,
        SENTENCE,
        "uima.tcas.DocumentAnnotation",
        "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData",
        "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.TagsetDescription",
    }
)
TYPESYSTEM_NAMES = ("TypeSystem.xml", "typesystem.xml")
SKIPPED_FEATURES = frozenset({"sofa", "begin", "end"})
# What the XML parsers (ElementTree's, cassis's lxml: a SyntaxError) and cassis raise on a
# file that is not a CAS of this type system (ValueError, KeyError, TypeError...); an XML
# declaration naming an unknown encoding raises LookupError.
READ_ERRORS = (SyntaxError, ValueError, KeyError, TypeError, AttributeError, OSError, LookupError)


def looks_like_xmi(head: str) -> bool:
    return "<xmi:XMI" in head[:4000] or XMI_NS in head[:4000]


# --------------------------------------------------------------------------- type system


def _type_name(tag: str) -> str | None:
    """``{http:///webanno/custom.ecore}Span`` -> ``webanno.custom.Span``; None for XMI's own."""
    if not tag.startswith("{"):
        return None
    namespace, local = tag[1:].split("}", 1)
    if namespace in (XMI_NS, CAS_NS) or not namespace.startswith("http:///"):
        return None
    package = namespace[len("http:///") :].removesuffix(".ecore").replace("/", ".")
    return f"{package}.{local}"


def completed_typesystem(data: bytes, typesystem: cassis.TypeSystem) -> cassis.TypeSystem:
    """``typesystem`` with the types (and features) the XMI uses and it lacks."""
    root = ElementTree.fromstring(data)
    elements = list(root)
    by_id = {e.get(XMI_ID): e for e in elements if e.get(XMI_ID) is not None}
    missing: dict[str, list[ElementTree.Element]] = {}
    for element in elements:
        name = _type_name(element.tag)
        if name is not None and not typesystem.contains_type(name):
            missing.setdefault(name, []).append(element)
    for name, found in missing.items():
        attributes = {a for e in found for a in e.attrib}
        supertype = (
            ANNOTATION
            if "begin" in attributes
            else "uima.cas.AnnotationBase"
            if "sofa" in attributes
            else "uima.cas.TOP"
        )
        typesystem.create_type(name, supertypeName=supertype)
    for name, found in missing.items():
        type_ = typesystem.get_type(name)
        names = sorted({a for e in found for a in e.attrib} - {XMI_ID, *SKIPPED_FEATURES})
        for attribute in names:
            values = [e.get(attribute) for e in found if e.get(attribute) is not None]
            targets = [[by_id.get(token) for token in (value or "").split()] for value in values]
            if values and all(t and all(x is not None for x in t) for t in targets):
                kinds = {_type_name(x.tag) for t in targets for x in t if x is not None}
                single = all(len(t) == 1 for t in targets)
                target = kinds.pop() if len(kinds) == 1 else None
                if single:
                    typesystem.create_feature(type_, attribute, target or "uima.cas.TOP")
                else:
                    typesystem.create_feature(
                        type_, attribute, "uima.cas.FSArray", elementType="uima.cas.TOP"
                    )
            else:
                typesystem.create_feature(type_, attribute, "uima.cas.String")
    return typesystem


def _typesystem_for(
    path: PathOrStream, given: Any, loaded: dict[str, cassis.TypeSystem]
) -> cassis.TypeSystem:
    """The type system for ``path``, loaded once per source in one read (parsing DKPro
    Core's takes a quarter of a second); types inferred from earlier files stay in it."""
    source: Path | None = None
    if given is not None:
        source = Path(given)
    elif isinstance(path, (str, os.PathLike)):
        source = next(
            (
                Path(path).parent / name
                for name in TYPESYSTEM_NAMES
                if (Path(path).parent / name).is_file()
            ),
            None,
        )
    key = str(source) if source is not None else ""
    if key not in loaded:
        if source is None:
            loaded[key] = cassis.load_dkpro_core_typesystem()
        else:
            with source.open("rb") as stream:
                loaded[key] = cassis.load_typesystem(stream)
    return loaded[key]


# --------------------------------------------------------------------------- reading


def _primitive(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def _features(fs: Any, skip: Iterable[str] = ()) -> dict[str, str]:
    out = {}
    for feature in fs.type.all_features:
        if feature.name in SKIPPED_FEATURES or feature.name in skip:
            continue
        value = _primitive(fs.get(feature.name))
        if value is not None:
            out[feature.name] = value
    return out


def _slot_features(fs: Any) -> list[str]:
    """The names of ``fs``'s slot features (arrays of links with a role and a target)
    that hold something."""
    names = []
    for feature in fs.type.all_features:
        value = fs.get(feature.name)
        elements = getattr(value, "elements", None)
        if elements and any(
            getattr(e, "type", None) is not None and "target" in _names(e.type) for e in elements
        ):
            names.append(feature.name)
    return names


def cas_document(cas: cassis.Cas, name: str, problems: Problems) -> CasDocument:
    text = cas.sofa_string or ""
    document = CasDocument(name=name, text=text)
    everything = list(cas.select_all_fs())
    typesystem = cas.typesystem
    link_types = _chains(everything, document, typesystem, name, problems)
    for fs in everything:
        type_name = fs.type.name
        if not typesystem.subsumes(ANNOTATION, type_name):
            continue
        if not _inside(fs, text, name, problems):
            continue
        if type_name == TOKEN:
            document.tokens.append((fs.begin, fs.end))
        elif type_name == SENTENCE:
            document.sentences.append((fs.begin, fs.end))
        elif type_name in NOT_SPANS or type_name in link_types:
            continue
        else:
            names = {f.name for f in fs.type.all_features}
            features = _features(fs, ("Governor", "Dependent"))
            if "Governor" in names and "Dependent" in names:
                governor, dependent = fs.get("Governor"), fs.get("Dependent")
                if governor is None or dependent is None:
                    continue
                if not (
                    _is_annotation(governor, typesystem) and _is_annotation(dependent, typesystem)
                ):
                    problems.error(
                        name, f"{short(type_name)} {fs.xmiID}", "its ends are not annotations"
                    )
                    continue
                document.relations.append(
                    CasRelation(
                        type_name,
                        (governor.begin, governor.end),
                        (dependent.begin, dependent.end),
                        features,
                    )
                )
            else:
                for slot in _slot_features(fs):
                    problems.error(
                        name,
                        slot,
                        f"slot feature {slot} of {type_name} holds links: slot features "
                        "cannot be carried; remove them from the layer or the export",
                    )
                document.spans.append(CasSpan(type_name, fs.begin, fs.end, features))
                layer = document.layers.setdefault(type_name, [])
                layer += [f for f in features if f not in layer]
    document.tokens.sort()
    document.sentences.sort()
    document.spans.sort(key=lambda s: (s.begin, -s.end))
    return document


def _chains(
    everything: list[Any],
    document: CasDocument,
    typesystem: cassis.TypeSystem,
    name: str,
    problems: Problems,
) -> set[str]:
    """Each chain (first, next, ...) into `document.chains`; returns the link types."""
    link_types: set[str] = set()
    for fs in everything:
        names = {f.name for f in fs.type.all_features}
        if "first" in names and "begin" not in names:
            chain: CasChain | None = None
            link = fs.get("first")
            seen: set[int] = set()
            while link is not None and id(link) not in seen:
                seen.add(id(link))
                if not _is_annotation(link, typesystem):
                    problems.error(
                        name,
                        f"{short(fs.type.name)} {fs.xmiID}",
                        f"its chain names {str(link)[:40]!r}, not a link of the text",
                    )
                    break
                if chain is None:
                    chain = CasChain(link.type.name)
                    link_types.add(link.type.name)
                    document.layers[link.type.name] = [REFERENCE_TYPE, REFERENCE_RELATION]
                chain.links.append(CasLink(link.begin, link.end, _features(link, ("next",))))
                link = link.get("next")
            if chain is not None:
                document.chains.append(chain)
    return link_types


def _is_annotation(value: Any, typesystem: cassis.TypeSystem) -> bool:
    # cassis, lenient, keeps a reference it cannot resolve as its text, and id 0 as NULL.
    type_ = getattr(value, "type", None)
    return type_ is not None and typesystem.subsumes(ANNOTATION, type_.name)


def _inside(fs: Any, text: str, name: str, problems: Problems) -> bool:
    """Whether an annotation lies within the text; else an error that names it. Sliced as
    it is, one ending beyond the text became a shorter token or mention, unsaid."""
    if fs.type.name in NOT_SPANS - {TOKEN, SENTENCE}:
        return True  # describes the document, read for nothing here
    begin, end = fs.begin, fs.end
    if isinstance(begin, int) and isinstance(end, int) and 0 <= begin <= end <= len(text):
        return True
    problems.error(
        name,
        f"{short(fs.type.name)} {fs.xmiID}",
        f"begin {begin}, end {end} is not inside the text ({len(text)} characters)",
    )
    return False


def _read_cas(data: bytes, typesystem: cassis.TypeSystem) -> cassis.Cas:
    typesystem = completed_typesystem(data, typesystem)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cassis warns, lenient, about what it skips
        return cassis.load_cas_from_xmi(data.decode("utf-8"), typesystem=typesystem, lenient=True)


def read_uima_xmi(
    path_or_stream: PathOrStream, *, skip_invalid: bool = False, typesystem: Any = None
) -> ImportReport:
    """An ``.xmi`` file as one topic (id = its stem), or every ``.xmi`` file of a folder (at
    any depth, in path order), one topic each. A file is one record."""
    if isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir():
        files = sorted(Path(path_or_stream).rglob("*.xmi"))
        return _read_topics([[f] for f in files], skip_invalid, typesystem)
    return _read_topics([[path_or_stream]], skip_invalid, typesystem)


def read_uima_xmi_folders(
    path_or_stream: PathOrStream, *, skip_invalid: bool = False, typesystem: Any = None
) -> ImportReport:
    """Every folder holding ``.xmi`` files as one topic (id = the folder's name)."""
    if not (isinstance(path_or_stream, (str, os.PathLike)) and Path(path_or_stream).is_dir()):
        return read_uima_xmi(path_or_stream, skip_invalid=skip_invalid, typesystem=typesystem)
    folders: dict[Path, list[Path]] = {}
    for file in sorted(Path(path_or_stream).rglob("*.xmi")):
        folders.setdefault(file.parent, []).append(file)
    return _read_topics(list(folders.values()), skip_invalid, typesystem, by_folder=True)


def _bytes(path: PathOrStream) -> bytes:
    if isinstance(path, (str, os.PathLike)):
        return Path(path).read_bytes()
    stream: IO[Any] = path
    data = stream.read()
    return data.encode("utf-8") if isinstance(data, str) else data


def _read_topics(
    groups: list[list[Any]], skip_invalid: bool, typesystem: Any, by_folder: bool = False
) -> ImportReport:
    report = ImportReport()
    loaded: dict[str, cassis.TypeSystem] = {}
    for group in groups:
        first = group[0]
        file = display_name(first)
        is_path = isinstance(first, (str, os.PathLike))
        record = Path(first).parent.name if by_folder and is_path else file
        if by_folder and is_path:
            topic_id = Path(first).parent.name
        else:
            topic_id = Path(file).stem if file != "<stream>" else "xmi"
        problems = Problems(record)
        documents = []
        for path in group:
            name = display_name(path)
            try:
                cas = _read_cas(_bytes(path), _typesystem_for(path, typesystem, loaded))
            except READ_ERRORS as error:
                problems.error(name, None, f"not a UIMA CAS XMI file cassis can read ({error})")
                continue
            documents.append(cas_document(cas, Path(name).stem, problems))
        topic: TopicData | None = None
        if not problems.errors:
            topic = documents_to_topic(topic_id, documents, problems)
        report.errors += problems.errors
        report.warnings += problems.warnings
        if problems.errors:
            report.skipped.append(Skipped(record, None, tuple(problems.errors)))
        elif topic is not None:
            report.topics.append(topic)
    if report.errors and not skip_invalid:
        raise FormatErrors(report.errors, report)
    return report


# --------------------------------------------------------------------------- writing


def _ensure_types(typesystem: cassis.TypeSystem, documents: list[CasDocument]) -> None:
    for document in documents:
        for chain in document.chains:
            if not typesystem.contains_type(chain.layer):
                link = typesystem.create_type(chain.layer, supertypeName=ANNOTATION)
                typesystem.create_feature(link, "next", chain.layer)
                for name in (REFERENCE_TYPE, REFERENCE_RELATION):
                    typesystem.create_feature(link, name, "uima.cas.String")
            chain_name = chain_type(chain.layer)
            if not typesystem.contains_type(chain_name):
                chain_fs = typesystem.create_type(
                    chain_name, supertypeName="uima.cas.AnnotationBase"
                )
                typesystem.create_feature(chain_fs, "first", chain.layer)
        for span in document.spans:
            if not typesystem.contains_type(span.layer):
                typesystem.create_type(span.layer, supertypeName=ANNOTATION)
            type_ = typesystem.get_type(span.layer)
            known = {f.name for f in type_.all_features}
            for name in span.features:
                if name not in known:
                    typesystem.create_feature(type_, name, "uima.cas.String")
                    known.add(name)


def document_cas(document: CasDocument, typesystem: cassis.TypeSystem) -> cassis.Cas:
    cas = cassis.Cas(typesystem=typesystem, sofa_string=document.text, sofa_mime="text")
    token, sentence = typesystem.get_type(TOKEN), typesystem.get_type(SENTENCE)
    cas.add_all([token(begin=b, end=e) for b, e in document.tokens])
    cas.add_all([sentence(begin=b, end=e) for b, e in document.sentences])
    for chain in document.chains:
        link_type = typesystem.get_type(chain.layer)
        following = None
        links = []
        for link in reversed(chain.links):
            features = {k: v for k, v in link.features.items() if k in _names(link_type)}
            fs = link_type(begin=link.begin, end=link.end, next=following, **features)
            links.append(fs)
            following = fs
        cas.add_all(links)
        cas.add(typesystem.get_type(chain_type(chain.layer))(first=following))
    for span in document.spans:
        span_type = typesystem.get_type(span.layer)
        values = {k: _typed(span_type, k, v) for k, v in span.features.items()}
        cas.add(span_type(begin=span.begin, end=span.end, **values))
    return cas


def _names(type_: Any) -> set[str]:
    return {f.name for f in type_.all_features}


def _typed(type_: Any, name: str, value: str) -> Any:
    range_name = type_.get_feature(name).rangeType.name
    if range_name in ("uima.cas.Integer", "uima.cas.Long", "uima.cas.Short"):
        return int(value)
    if range_name in ("uima.cas.Float", "uima.cas.Double"):
        return float(value)
    if range_name == "uima.cas.Boolean":
        return value == "true"
    return value


def write_uima_xmi(topics: Iterable[TopicData], path: PathOrStream) -> list[FormatWarning]:
    """Write each topic under the folder ``path`` with one ``TypeSystem.xml``."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("UIMA CAS XMI is written to a folder")
    folder = Path(path)
    problems = Problems(display_name(path))
    planned = []
    topics = list(topics)
    # One topic of several documents makes every topic a folder (see webanno_tsv_write).
    as_folders = any(len(topic.documents) > 1 for topic in topics)
    for topic in topics:
        documents = topic_to_documents(topic, problems)
        if not as_folders:
            targets = [folder / f"{topic.external_id}.xmi"]
        else:
            width = len(str(len(documents)))
            targets = [
                folder / topic.external_id / f"{i:0{width}d}-{_safe(d.name)}.xmi"
                for i, d in enumerate(documents, start=1)
            ]
        planned += list(zip(documents, targets, strict=True))
    typesystem = cassis.load_dkpro_core_typesystem()
    _ensure_types(typesystem, [document for document, _ in planned])
    folder.mkdir(parents=True, exist_ok=True)
    typesystem.to_xml(folder / "TypeSystem.xml")
    for document, target in planned:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.parent != folder:
            typesystem.to_xml(target.parent / "TypeSystem.xml")
        document_cas(document, typesystem).to_xmi(target)
    return problems.warnings


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "document"
