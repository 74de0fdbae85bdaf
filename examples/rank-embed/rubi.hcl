# Add semantic search to the pipeline: rank.embed (examples/rank-embed)
# embeds documents and questions with a local OpenAI-compatible endpoint
# and ranks by cosine. Build it next to this file, start the endpoint,
# then copy this block into your project's rubi.hcl (or pass this file
# with --config):
#
#   go build -o examples/rank-embed/bin/rubi-rank-embed ./examples/rank-embed
#   ollama pull nomic-embed-text      # once; `ollama serve` if not running
#   rubi index --config examples/rank-embed/rubi.hcl
#   rubi context "where do we retry failed uploads" --config examples/rank-embed/rubi.hcl --explain
#
# With no endpoint answering, the first call of a run prints one line
# naming rank.embed and rubi answers with its other rankers.
ranker "rank.embed" {
  plugin   = "bin/rubi-rank-embed"       # relative to this file
  weight   = 1.0                         # one vote in the fusion, like each built-in
  # One call's deadline, set by rubi. The first index of a project embeds
  # every document (Ollama on 2 CPU cores: tens of documents a second),
  # so it is long; a question is one request, bounded by request_timeout.
  timeout  = "10m"

  endpoint = "http://127.0.0.1:11434/v1" # Ollama; llama-server: :8080/v1, LM Studio: :1234/v1
  model    = "nomic-embed-text"
  # nomic-embed-text was trained with these prefixes; other models want
  # none (leave both out) or their own.
  query_prefix    = "search_query: "
  document_prefix = "search_document: "

  kinds           = ["file", "node", "chunk"] # files, notes, conversation chunks
  max_chars       = 4000                      # of each document's text sent
  batch_size      = 32                        # documents a request
  request_timeout = "30s"                     # one request, a cold model load included
  # allow_remote  = true   # only to send your code to another machine
}
