"""The build on a Dask cluster (``build(..., client=)``, ``sitemap-ext build --dask``):
each partition built on a worker by the one-machine build's own pipeline
(``partition``), URL identity across partitions found by a shuffle on the URL key
(``identity``), the index tree written and the output committed by the client
(``driver``, ``index_tree``). Nothing here is imported by a plain build."""
