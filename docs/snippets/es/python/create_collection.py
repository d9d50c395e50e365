# packages: elasticsearch>=8.19,<9
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
import os

from elasticsearch import Elasticsearch

# .env.loams (from `loams env export`) holds the stack's URLs and key; variables already set win.
if os.path.exists(".env.loams"):
    with open(".env.loams") as env:
        for name, _, value in (line.strip().partition("=") for line in env):
            if name and not name.startswith("#"):
                os.environ.setdefault(name, value.strip("'\""))

es = Elasticsearch(os.environ["ELASTICSEARCH_URL"], bearer_auth=os.environ["LOAMS_API_KEY"])

es.indices.create(
    index="articles",
    mappings={"properties": {"title": {"type": "text"}, "body": {"type": "text"},
                             "embedding": {"type": "dense_vector", "dims": 4, "similarity": "cosine"}}},
)
