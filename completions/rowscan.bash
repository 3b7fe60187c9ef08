# SPDX-License-Identifier: Apache-2.0
# bash completion for rowscan (issue 29). Installed by `cmake --install` to
# share/bash-completion/completions/rowscan; tests/completions_test.py checks that it offers every option
# each command's --help lists.
_rowscan() {
  local cur prev words cword
  _init_completion || return
  local commands="stations lineitem group generate help"
  local shared="--format --chunk-size --threads --devices --stats --skip-invalid --no-progress --recursive --crlf --explain --help"
  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version -V" -- "$cur"))
    return
  fi
  local command=${words[1]}
  case $prev in
    --format)
      if [[ $command == lineitem ]]; then COMPREPLY=($(compgen -W "text json" -- "$cur"));
      elif [[ $command == group ]]; then COMPREPLY=($(compgen -W "csv json 1brc" -- "$cur"));
      else COMPREPLY=($(compgen -W "1brc json csv" -- "$cur")); fi
      return ;;
    --devices) COMPREPLY=($(compgen -W "auto cpu gpu gpu:0 cpu+gpu" -- "$cur")); return ;;
    --chunk-size | --threads | --suppkey-below | --rows | --stations | --scale | --seed | --keys) return ;;
    --key | --value | --delimiter | --quote) return ;;
    -o | --output) _filedir; return ;;
  esac
  case $command in
    stations)
      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$shared" -- "$cur")); else _filedir; fi ;;
    lineitem)
      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$shared --suppkey-below" -- "$cur")); else _filedir; fi ;;
    group)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$shared --key --value --delimiter --header --quote --no-quote --scale" -- "$cur"))
      else _filedir; fi ;;
    generate)
      if [[ $cword -eq 2 ]]; then
        COMPREPLY=($(compgen -W "measurements lineitem sales --help" -- "$cur"))
      elif [[ ${words[2]} == measurements ]]; then
        COMPREPLY=($(compgen -W "--rows --stations --seed --output -o --help" -- "$cur"))
      elif [[ ${words[2]} == sales ]]; then
        COMPREPLY=($(compgen -W "--rows --keys --seed --output -o --help" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "--scale --seed --output -o --help" -- "$cur"))
      fi ;;
    help) [[ $cword -eq 2 ]] && COMPREPLY=($(compgen -W "stations lineitem group generate" -- "$cur")) ;;
  esac
}
complete -F _rowscan rowscan
