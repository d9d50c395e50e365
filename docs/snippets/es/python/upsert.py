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

from elasticsearch import helpers

docs = [
    {"_index": "articles", "_id": "1", "title": "Refunds", "body": "a refund takes 5 days", "embedding": [0.1, 0.2, 0.3, 0.4]},
    {"_index": "articles", "_id": "2", "title": "Shipping", "body": "shipping is free over 50 EUR", "embedding": [0.4, 0.3, 0.2, 0.1]},
]
helpers.bulk(es, docs, refresh=True)
