/**
 * Shell completion scripts. Each asks the CLI itself for candidates (`runledger
 * --get-yargs-completions WORD…`, answered by yargs from the command tree), with SHELL set so yargs
 * formats them for that shell: bare words for bash, `word:description` for zsh, `word<TAB>description`
 * for fish. docs/cli.md has the install lines.
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const bash = `###-begin-runledger-completions-###
# bash completion for runledger: eval "$(runledger completion bash)" in ~/.bashrc
_runledger_completions() {
  local cur_word="\${COMP_WORDS[COMP_CWORD]}"
  local -a candidates
  mapfile -t candidates < <(SHELL=bash runledger --get-yargs-completions "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  mapfile -t COMPREPLY < <(compgen -W "\${candidates[*]}" -- "\${cur_word}")
  return 0
}
complete -o bashdefault -o default -F _runledger_completions runledger
###-end-runledger-completions-###
`;

const zsh = `#compdef runledger
###-begin-runledger-completions-###
# zsh completion for runledger: runledger completion zsh > "\${fpath[1]}/_runledger"
_runledger_completions() {
  local -a reply
  local si=$IFS
  IFS=$'\\n' reply=($(SHELL=zsh runledger --get-yargs-completions "\${(@)words[2,CURRENT]}" 2>/dev/null))
  IFS=$si
  if [[ \${#reply} -gt 0 ]]; then
    _describe 'values' reply
  else
    _default
  fi
}
if [[ "\${zsh_eval_context[-1]}" == "loadautofunc" ]]; then
  _runledger_completions "$@"
else
  compdef _runledger_completions runledger
fi
###-end-runledger-completions-###
`;

const fish = `###-begin-runledger-completions-###
# fish completion for runledger: runledger completion fish > ~/.config/fish/completions/runledger.fish
function __runledger_completions
    set -l words (commandline -opc)
    set -e words[1]
    env SHELL=fish runledger --get-yargs-completions $words (commandline -ct) 2>/dev/null
end
complete -c runledger -f -a '(__runledger_completions)'
###-end-runledger-completions-###
`;

export const completionScript = (shell: Shell): string => ({ bash, zsh, fish })[shell];
