"""The check's orchestration: which files, in which order, read where, and each one
judged by the rules of the registry (``rules/``), nothing written.

``check`` (the check of inputs: files, folders, URLs) plans a ``run`` (the order of a
check) over small objects of its own: the inputs planned (``inputs``), the results
merged, the cluster index and the built site's pages (``results``); a folder is
walked (``folder_walk``), an index followed (``index_follow``), URLs fetched
(``live_fetch``), the Link headers of header files and fetched URLs read
(``header_files``); each file is read and judged by ``judge_file``, in this process
or in the pool (``workers``). The rules themselves, the rules across files and their
index live in ``rules/``; a build imports nothing of this package.
"""
