"""The mention vectors' HNSW indexes (cosine), one per vector size the corpus takes, each
partial on `dim` over the column cast to that size: pgvector indexes vectors of one declared
size, and a corpus may hold a MiniLM encoding (384) beside a BERT-base one (768)."""

from django.db import migrations

# corpus.models.INDEXED_DIMENSIONS as it was when this ran (a migration never reads models)
INDEXED_DIMENSIONS = (384, 768, 1024)


def create(dim: int) -> str:
    return (
        f"CREATE INDEX corpus_vector_hnsw_{dim} ON corpus_mentionvector USING hnsw "
        f"((vector::vector({dim})) vector_cosine_ops) WITH (m = 16, ef_construction = 64) "
        f"WHERE dim = {dim}"
    )


class Migration(migrations.Migration):
    dependencies = [("corpus", "0001_initial")]

    operations = [
        migrations.RunSQL(create(dim), f"DROP INDEX corpus_vector_hnsw_{dim}")
        for dim in INDEXED_DIMENSIONS
    ]
