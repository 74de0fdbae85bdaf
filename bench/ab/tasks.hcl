# bench/ab's task set: chains of tasks on real repositories. Each task is
# a new session in the same copy of the chain's repository, after the
# earlier tasks: the later ones build on what the earlier found (and, in
# rubi's arms, on the notes they registered). The questions read code and
# change nothing, so a session's figures depend on the model finding its
# way, not on the tests of a change passing.
#
# A chain names its repository with repo (a git repository, relative to
# this file) or mirror (OWNER/NAME, a bare repository under -mirrors) and a
# revision (rev, default HEAD). knowledge (a folder of notes) would seed
# the mature arm's graph; without it the mature arm starts from the graph
# the map arm's first run left at the chain's end.
#
# mock is what the scripted model does in a run against the mock (no
# -real): its steps in order, one model response each: read (a file,
# whole), search (grep the tree), context (rubi's context tool), register
# (rubi's register tool), and answer, last. context and register are
# played only in the arms with rubi. A step may name the usage its
# response reports, usage = { input = N, cache_read = N, cache_write = N,
# output = N }; without it the mock reports a quarter of the request's
# bytes as input and 10 output tokens. -real ignores mock.
#
# -short runs the first chain's first two tasks: keep it rubi's own.

chain "rubi-recall" {
  repo = "../.."
  rev  = "HEAD"

  task "where" {
    prompt = "In this repository, where does rubi decide which notes to recall for a user's prompt, and what makes a note qualify? Name the function, its file, and the rule."
    mock {
      step "context" { query = "recall notes for a prompt threshold" }
      step "read" { path = "agent/hooks/recall.go" }
      step "register" {
        type  = "concept"
        title = "Recall injects notes that share two content words with the prompt"
        body  = "agent/hooks/recall.go: recall ranks notes by BM25 and names; a note qualifies with two of the prompt's content words, one for short prompts, or when the prompt names one of its files."
        files = ["agent/hooks/recall.go"]
      }
      step "answer" { text = "handler.recall in agent/hooks/recall.go: a note qualifies when it holds two of the prompt's content words (one for a short prompt) or is about a file the prompt names." }
    }
  }

  task "budget" {
    prompt = "Building on where recall happens: which setting of rubi.hcl bounds how many tokens the recalled notes may take, what is its default, and where is it read?"
    mock {
      step "search" { pattern = "Recall" }
      step "read" { path = "rubi.hcl" }
      step "answer" { text = "budgets.recall in rubi.hcl, read by core/config into the hooks' recall." }
    }
  }

  task "tests" {
    prompt = "Which test checks that recall injects a matching note and stays silent for an unrelated prompt? Name the test function and its file, and one case it does not cover."
    mock {
      step "search" { pattern = "func TestRecall" }
      step "read" { path = "agent/hooks/hooks_test.go" }
      step "answer" { text = "The recall tests of agent/hooks/hooks_test.go." }
    }
  }
}

chain "requests-retries" {
  mirror = "psf/requests"
  rev    = "v2.32.3"

  task "where" {
    prompt = "Where does requests decide how many times a request is retried, and what is the default? Name the class, the file and the setting."
    mock {
      step "search" { pattern = "max_retries" }
      step "read" { path = "src/requests/adapters.py" }
      step "register" {
        type  = "concept"
        title = "Retries are the HTTPAdapter's max_retries, none by default"
        body  = "src/requests/adapters.py: HTTPAdapter(max_retries=DEFAULT_RETRIES) wraps it in urllib3's Retry; DEFAULT_RETRIES is 0, read=False."
        files = ["src/requests/adapters.py"]
      }
      step "answer" { text = "HTTPAdapter in src/requests/adapters.py: max_retries, default DEFAULT_RETRIES = 0." }
    }
  }

  task "backoff" {
    prompt = "Building on how requests retries: what is the smallest code with which a user gets retries with exponential backoff on connection errors for every https:// request of a Session?"
    mock {
      step "read" { path = "src/requests/adapters.py" }
      step "answer" { text = "Mount an HTTPAdapter(max_retries=Retry(total=5, backoff_factor=0.5)) on the session for https://." }
    }
  }

  task "tests" {
    prompt = "Which tests of requests exercise the adapter's max_retries, and what do they check?"
    mock {
      step "search" { pattern = "max_retries" }
      step "answer" { text = "tests/test_requests.py and tests/test_adapters.py." }
    }
  }
}

chain "flask-config" {
  mirror = "pallets/flask"
  rev    = "3.0.3"

  task "where" {
    prompt = "How does Flask load configuration from environment variables that share a prefix? Name the method and its file."
    mock {
      step "search" { pattern = "def from_prefixed_env" }
      step "read" { path = "src/flask/config.py" }
      step "register" {
        type  = "concept"
        title = "Config.from_prefixed_env loads FLASK_-prefixed variables"
        body  = "src/flask/config.py: from_prefixed_env(prefix='FLASK', loads=json.loads) strips the prefix, parses each value as JSON (else keeps the string) and nests keys on double underscores."
        files = ["src/flask/config.py"]
      }
      step "answer" { text = "Config.from_prefixed_env in src/flask/config.py." }
    }
  }

  task "types" {
    prompt = "Building on that method: how does it turn a variable's value into an int or a bool, and what happens to a value that is not valid JSON?"
    mock {
      step "read" { path = "src/flask/config.py" }
      step "answer" { text = "It calls loads (json.loads by default) and keeps the string when that raises." }
    }
  }

  task "nested" {
    prompt = "How would I set a nested key such as SQLALCHEMY_ENGINE_OPTIONS pool_size through the same mechanism? Point to the lines that handle it and its test."
    mock {
      step "search" { pattern = "__" }
      step "answer" { text = "A double underscore nests: FLASK_SQLALCHEMY_ENGINE_OPTIONS__pool_size; the loop in from_prefixed_env, tested in tests/test_config.py." }
    }
  }
}
