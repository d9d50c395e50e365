# packages: elasticsearch>=8.19,<9
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
import os

from elasticsearch import Elasticsearch

es = Elasticsearch(os.environ["ELASTICSEARCH_URL"], bearer_auth=os.environ["LOAMS_API_KEY"])

res = es.search(index="articles", query={"match": {"body": "refund"}}, size=5)
for hit in res["hits"]["hits"]:
    print(hit["_id"], hit["_score"], hit["_source"]["title"])
