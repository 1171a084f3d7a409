; placeholder: replaced by the language's real query
