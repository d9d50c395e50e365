# packages: elasticsearch>=8.19,<9
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
import os

from elasticsearch import Elasticsearch

es = Elasticsearch(os.environ["ELASTICSEARCH_URL"], bearer_auth=os.environ["LOAMS_API_KEY"])

res = es.search(
    index="articles",
    query={"match": {"body": "refund"}},
    knn={"field": "embedding", "query_vector": [0.1, 0.2, 0.3, 0.4], "k": 10, "num_candidates": 50},
    rank={"rrf": {}},
    size=5,
)
for hit in res["hits"]["hits"]:
    print(hit["_id"], hit["_source"]["title"])
