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

res = es.search(index="articles", query={"match": {"body": "refund"}}, size=5)
for hit in res["hits"]["hits"]:
    print(hit["_id"], hit["_score"], hit["_source"]["title"])
