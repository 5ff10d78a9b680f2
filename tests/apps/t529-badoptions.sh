#!/bin/sh
# Every program refuses bad option values before it does any work (issue 39):
# each integer option with 2^31, 2^32 + 2 (which a 32-bit parse wraps to 2)
# and -1 (int4: 2^63 too, past what strtoll holds: one parse for all, tried
# on the options the issue names), each real with NaN, negative and
# out-of-range values (Inf on some: the same non-finite check as NaN), and
# the conflicting pairs. A case passes when the run exits nonzero without a
# signal, its PETSc error names the option and the value given, and the
# directory its outputs (and journal) would go to stays empty.
#
# The table: KIND|PROGRAM|CONTEXT|OPTION|TEMPLATE|VALUES
#   int   VALUES default to the integers above (int4: and 2^63); X in TEMPLATE is the value
#   real  VALUES are the reals to try
#   case  TEMPLATE is the whole bad command line, VALUES the message expected
# CONTEXT is what makes the program read the option; @D is the output directory.
# The runs are MPI singletons without a daemon, 12 at a time: most of a run is MPI's start-up.
. "$top_srcdir/tests/testlib.sh"
ints="2147483648 4294967298 -1"
ints_neg_ok="2147483648 4294967298 -2"

base() { # base PROGRAM DIR: the tiny problem of each program, its outputs in DIR
  case $1 in
  gradient) echo "-da_grid_x 12 -da_grid_y 12 -rw_steps 5 -rw_gradient_view hdf5:$2/g.h5" ;;
  schedule) echo "-rw_steps 10 -rw_schedule_view_draw $2/s.svg" ;;
  heat-inverse) echo "-da_grid_x 24 -da_grid_y 24 -tao_max_it 1 -rw_output $2/o" ;;
  fwi) echo "-rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output $2/o" ;;
  hybrid) echo "-rw_hybrid_grid 8 -rw_nn_layers 1,4,1 -rw_hybrid_steps 4 -rw_hybrid_epochs 2 -rw_output $2/h" ;;
  bench) echo "-rw_bench_size tiny -rw_bench_sections sum -rw_bench_output $2/b.csv" ;;
  esac
}

cat > "$tmp/table" <<'EOF'
int4|gradient||-rw_steps|X|
int|gradient||-rw_check_finite_interval|X|
int|gradient||-rw_adjoint_keep_interval|X|
int|gradient||-rw_model_step_block|X|
int|gradient||-rw_kernel_stream_stores|X|NEG_OK
int|gradient||-rw_heat_dim|X|
int|gradient||-rw_adjoint_monitor_solution_every|X|
int|gradient||-rw_stencil_block_rows|X|
int|gradient||-rw_debug_kill_at_step|X|NEG_OK
int4|gradient||-da_grid_x|X|
int|gradient||-da_grid_y|X|
int|gradient||-da_processors_x|X|
int|gradient|-rw_heat_scheme implicit|-ksp_max_it|X|
int4|gradient|-rw_heat_nn|-rw_nn_layers|1,X,1|
int|gradient|-rw_heat_nn|-rw_nn_seed|X|9223372036854775808 -1 1e3
int|gradient|-rw_store_type hdf5 -rw_store_hdf5_file @D/ck.h5|-rw_store_hdf5_alignment|X|
int4|gradient|-rw_model_type wave|-rw_wave_space_order|X|
int4|gradient|-rw_model_type wave|-rw_wave_nbl|X|
int|gradient|-rw_model_type wave|-rw_wave_dim|X|
real|gradient||-rw_dt|X|nan inf -1 0
real|gradient||-rw_heat_theta|X|nan inf -0.5 1.5
real|gradient||-rw_verify_dot_tol|X|nan 0 -1
real|gradient||-rw_adjoint_stop_steady|X|nan -1
real|gradient||-rw_adjoint_monitor_seconds|X|nan -1
real|gradient||-rw_adjoint_keep_seconds|X|nan -1
real|gradient||-rw_checkpoint_ram_fraction|X|nan 0 1.5
real|gradient||-rw_schedule_costs|1,1,X,1|nan -1
real|gradient|-rw_schedule_type multilevel|-rw_schedule_multilevel_max_work|X|nan -1
real|gradient||-rw_objective_terminal_weight|X|nan 0 -1
real|gradient|-rw_heat_scheme implicit|-ksp_rtol|X|nan -1
real|gradient|-rw_model_type wave|-rw_wave_f0|X|nan inf 0
real|gradient|-rw_model_type wave|-rw_wave_t0|X|nan
real|gradient|-rw_model_type wave|-rw_wave_dt_safety|X|nan 0 2
real|gradient|-rw_model_type wave|-rw_wave_spacing|X|nan 0 -1
real|gradient|-rw_model_type wave|-rw_wave_velocity_range|1.5,X|nan 0
real|gradient|-rw_model_type wave|-rw_wave_sources|X,10|nan
real|gradient|-rw_model_type wave|-rw_wave_receivers|X,10|nan
real|gradient|-rw_model_type wave|-rw_wave_origin|X,0|nan
case|gradient|||-rw_heat_scheme explicit -rw_heat_theta 1|-rw_heat_scheme explicit (theta 0.) and -rw_heat_theta 1. disagree
case|gradient|||-rw_heat_scheme implicit -rw_heat_theta 0.5|-rw_heat_scheme implicit (theta 1.) and -rw_heat_theta 0.5 disagree
case|gradient|||-rw_heat_nn -rw_nn_layers 1,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,1|-rw_nn_layers 1,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,1: 20 values: expected at most 18
real|schedule||-rw_steps|X|nan inf -1 0.5 1e30
real|schedule||-rw_schedule_costs|X,1,1,1|nan -1
int4|heat-inverse||-rw_inv_sensors|X|
int|heat-inverse||-rw_inv_observe_every|X|
int|heat-inverse||-rw_inv_experiments|X|
int|heat-inverse||-rw_obs_member|X|NEG_OK
int|heat-inverse||-rw_debug_kill_at_evaluation|X|NEG_OK
int4|heat-inverse||-tao_max_it|X|
int|heat-inverse||-tao_max_funcs|X|NEG_OK
real|heat-inverse||-rw_kappa_min|X|nan inf 0 -1
real|heat-inverse||-rw_kappa_max|X|nan 0
real|heat-inverse||-rw_inv_discrepancy|X|nan -1
real|heat-inverse||-rw_inv_noise|X|nan 0 -1 2
real|heat-inverse|-rw_reg_type tv|-rw_reg_alpha|X|nan inf -1
real|heat-inverse|-rw_reg_type tv|-rw_reg_tv_eps|X|nan 0 -1
real|heat-inverse||-tao_gatol|X|nan -1
real|heat-inverse||-tao_grtol|X|nan -1
case|heat-inverse|||-rw_kappa_min 2 -rw_kappa_max 1|Need 0 < -rw_kappa_min (2.) < -rw_kappa_max (1.)
case|heat-inverse|||-rw_reg_type tv -rw_reg_parameter nosuch|-rw_reg_parameter "nosuch": the model has no such parameter
int4|fwi||-rw_fwi_grid|X,16|
int4|fwi||-rw_fwi_shots|X|
int4|fwi||-rw_fwi_iterations|X|
int|fwi||-rw_fwi_dim|X|
int4|fwi||-rw_wave_nbl|X|
int4|fwi||-rw_wave_space_order|X|
int4|fwi||-tao_max_it|X|
int|fwi||-rw_ensemble_groups|X|
real|fwi||-rw_fwi_spacing|X|nan inf 0 -20
real|fwi||-rw_fwi_origin|X,0|nan
real|fwi||-rw_fwi_receiver_spacing|X|nan 0 -1
real|fwi||-rw_fwi_offset_max|X|nan -1
real|fwi||-rw_fwi_record|X|nan inf 0 -5
real|fwi||-rw_fwi_bands|X|nan inf -1
real|fwi||-rw_fwi_bands|0.004,X|nan -1
real|fwi||-rw_fwi_noise|X|nan -1 2
real|fwi||-rw_fwi_smooth|X|nan -1
real|fwi||-rw_fwi_cmin|X|nan 0
real|fwi||-rw_fwi_cmax|X|nan 0
real|fwi||-rw_fwi_water|X|nan 0 -1
real|fwi||-rw_dt|X|nan 0 -1
real|fwi||-rw_wave_f0|X|nan 0
case|fwi|||-rw_fwi_record 1e12|the time samples of a trace (the record length over dt, plus 1): 4.16667e+11 entries (3.1e+03 GiB), more than a PetscInt indexes (2147483647): lower -rw_fwi_record
case|fwi|||-rw_fwi_grid 100000,100000|the velocity models of the physical grid: 3e+10 entries (224 GiB), more than a PetscInt indexes (2147483647): lower -rw_fwi_grid
case|fwi|||-rw_fwi_receiver_spacing 1e-9|the receivers of the embedded spread
case|fwi|||-rw_fwi_cmin 3 -rw_fwi_cmax 2|expected 0 < cmin < cmax
case|fwi|||-rw_fwi_grid 31|-rw_fwi_grid: 1 values for a 2D problem
int|hybrid||-rw_hybrid_trajectories|X|
int4|hybrid||-rw_hybrid_steps|X|
int|hybrid||-rw_hybrid_observe_every|X|
int|hybrid||-rw_hybrid_epochs|X|
int|hybrid||-rw_hybrid_grid|X|
int|hybrid||-rw_hybrid_seed|X|9223372036854775808 -1
int4|hybrid||-rw_nn_layers|1,X,1|
real|hybrid||-rw_hybrid_rho|X|nan
real|hybrid||-rw_hybrid_kappa|X|nan 0 -1
real|hybrid||-rw_hybrid_dt|X|nan 0
real|hybrid||-rw_hybrid_lr|X|nan inf 0 -1
real|hybrid||-rw_hybrid_lr_decay|X|nan 0 2
real|hybrid|-rw_hybrid_train_kappa|-rw_hybrid_kappa0|X|nan -1
real|hybrid|-rw_hybrid_optimizer adam|-tao_adam_learning_rate|X|nan -1
real|hybrid|-rw_hybrid_optimizer adam|-tao_adam_learning_rate_decay|X|nan 0 2
real|hybrid|-rw_hybrid_optimizer adam|-tao_adam_beta1|X|nan 1 -0.1
real|hybrid|-rw_hybrid_optimizer adam|-tao_adam_beta2|X|nan 1
real|hybrid|-rw_hybrid_optimizer adam|-tao_adam_epsilon|X|nan 0
case|hybrid|||-rw_hybrid_trajectories 1000000 -rw_hybrid_steps 1000000|a rank's part of the observed states of every trajectory: 1.19e+05 GiB, more than this machine's memory
case|gradient|||-rw_heat_dim 2 -da_grid_x 2000000000 -da_grid_y 2000000000|a rank's part of the grid's states (about 8 vectors of it): 4e+18 entries (2.38e+11 GiB), more than a PetscInt indexes (2147483647): lower -da_grid_x, -da_grid_y
case|gradient|||-da_grid_x 4294967328|-da_grid_x 4294967328: expected a whole number in [1, 2147483647]
case|fwi|||-rw_fwi_grid 4294967337,21|-rw_fwi_grid 4294967337,21: value 1: expected a whole number in [8, 2147483647]
case|fwi|||-rw_fwi_grid 0,16|-rw_fwi_grid 0,16: value 1: expected a whole number in [8, 2147483647]
int4|bench||-rw_bench_repeat|X|
int|bench||-rw_bench_sum_terms|X|
int|bench||-rw_bench_kernel_grid|X|
real|bench||-rw_bench_seconds|X|nan -1
real|bench||-rw_bench_wave_record|X|nan 0
EOF

# expand the table into one case a line: PROGRAM|OPTIONS|EXPECTED
: > "$tmp/cases"
while IFS='|' read -r kind prog ctx opt tmpl vals; do
  case $kind in
  case) printf '%s|%s|%s\n' "$prog" "$tmpl" "$vals" >> "$tmp/cases"; continue ;;
  int) case $vals in "") vals=$ints ;; NEG_OK) vals=$ints_neg_ok ;; esac ;;
  int4) vals="$ints 9223372036854775808" ;;
  esac
  for v in $vals; do
    arg=$(printf '%s' "$tmpl" | sed "s/X/$v/")
    printf '%s|%s %s %s|%s %s\n' "$prog" "$ctx" "$opt" "$arg" "$opt" "$arg" >> "$tmp/cases"
  done
done < "$tmp/table"

# one case: refused, not a crash, the option and value named, nothing written
check() { # check N PROGRAM OPTIONS EXPECTED
  n=$1 prog=$2 opts=$3 expect=$4 d="$tmp/d$1"
  mkdir "$d" "$tmp/mpi$n"
  opts=$(printf '%s' "$opts" | sed "s|@D|$d|g")
  # isolated singletons share one session directory name: each gets its own base
  # shellcheck disable=SC2046
  OMPI_MCA_orte_tmpdir_base="$tmp/mpi$n" "$top_builddir/apps/rewind-$prog" $(base "$prog" "$d") $opts > "$tmp/o$n.txt" 2>&1 && rc=0 || rc=$?
  if [ "$rc" = 0 ]; then verdict="accepted"
  elif [ "$rc" -ge 128 ] || grep -q 'Caught signal' "$tmp/o$n.txt"; then verdict="crashed (status $rc)"
  elif ! grep -q 'PETSC ERROR' "$tmp/o$n.txt"; then verdict="refused without PETSc's error (status $rc): $(head -c 600 "$tmp/o$n.txt")"
  elif ! grep -qF -- "$expect" "$tmp/o$n.txt"; then verdict="refused without naming \"$expect\": $(grep -m1 -A2 'Error Message' "$tmp/o$n.txt" | tail -1)"
  elif [ -n "$(ls -A "$d")" ]; then verdict="refused, but left $(ls -A "$d" | tr '\n' ' ')"
  else verdict=ok
  fi
  echo "$verdict" > "$tmp/v$n"
}

# a 1D grid of 2e9 points (119 GiB of states) is refused where memory is smaller than that
mem=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2> /dev/null || echo 0)
if [ "${mem:-0}" -gt 0 ] && [ "$mem" -lt 100000000 ]; then
  echo "gradient|-rw_heat_dim 1 -da_grid_x 2000000000|a rank's part of the grid's states (about 8 vectors of it): 119 GiB, more than this machine's memory" >> "$tmp/cases"
fi
export OMPI_MCA_ess_singleton_isolated=1
n=0
while IFS='|' read -r prog opts expect; do
  n=$((n + 1))
  check "$n" "$prog" "$opts" "$expect" &
  if [ $((n % 12)) = 0 ]; then wait; fi
done < "$tmp/cases"
wait

bad=0 i=0
while IFS='|' read -r prog opts expect; do
  i=$((i + 1))
  v=$(cat "$tmp/v$i")
  if [ "$v" != ok ]; then
    echo "FAIL rewind-$prog $opts: $v"
    bad=$((bad + 1))
  fi
done < "$tmp/cases"
echo "$n bad option values over 6 programs: $((n - bad)) refused clearly, $bad not"
test "$bad" = 0

# The edges of the ranges are accepted: the checks refuse nothing a user may mean
good() { # good PROGRAM OPTIONS...: runs to the end
  prog=$1
  shift
  "$top_builddir/apps/rewind-$prog" "$@" > "$tmp/good.txt" 2>&1 || { echo "FAIL: rewind-$prog $* was refused"; grep 'PETSC ERROR' "$tmp/good.txt" | head -4; exit 1; }
  echo "ok: rewind-$prog $* accepted"
}
mkdir "$tmp/good" "$tmp/good/g" "$tmp/good/f" "$tmp/good/i" "$tmp/good/h"
good gradient $(base gradient "$tmp/good/g") -rw_heat_scheme implicit -rw_heat_theta 1 -rw_kernel_stream_stores -1 -rw_debug_kill_at_step -1 -rw_adjoint_stop_steady 0
good fwi $(base fwi "$tmp/good/f") -rw_fwi_noise 0 -rw_fwi_smooth 0 -rw_fwi_offset_max 0 -tao_max_funcs -1
good heat-inverse $(base heat-inverse "$tmp/good/i") -rw_obs_member -1 -rw_reg_alpha 0 -rw_inv_discrepancy 0 -rw_inv_noise 1
good schedule -rw_steps 1e9 -rw_schedule_ram_slots 10
good hybrid $(base hybrid "$tmp/good/h") -rw_hybrid_optimizer adam -tao_adam_beta1 0 -rw_hybrid_lr_decay 1

# A refusal leaves nothing that blocks the corrected rerun: a regulariser of a
# parameter the model lacks was found in the first evaluation, after the
# journal was written, and the rerun was refused ("holds an earlier run's evaluations")
inv="$top_builddir/apps/rewind-heat-inverse"
mkdir "$tmp/rerun"
if "$inv" $(base heat-inverse "$tmp/rerun") -rw_reg_type tv -rw_reg_parameter kapa > "$tmp/rerun1.txt" 2>&1; then echo "FAIL: -rw_reg_parameter kapa accepted"; exit 1; fi
grep -qF -- '-rw_reg_parameter "kapa": the model has no such parameter' "$tmp/rerun1.txt"
test -z "$(ls -A "$tmp/rerun")" || { echo "FAIL: the refused run left $(ls -A "$tmp/rerun")"; exit 1; }
"$inv" $(base heat-inverse "$tmp/rerun") -rw_reg_type tv -rw_reg_parameter kappa > "$tmp/rerun2.txt" 2>&1 || { echo "FAIL: the corrected rerun"; cat "$tmp/rerun2.txt"; exit 1; }
grep -q '^recovered kappa' "$tmp/rerun2.txt" && test -f "$tmp/rerun/o.h5"
echo "ok: a refused set-up leaves no journal or output; the corrected rerun runs"

# Network weights run with the activations they were written for, or are refused
hyb="$top_builddir/apps/rewind-hybrid"
mkdir "$tmp/nn" "$tmp/nn2"
"$hyb" $(base hybrid "$tmp/nn") -rw_nn_activation softplus > "$tmp/nn1.txt" 2>&1 || { cat "$tmp/nn1.txt"; exit 1; }
if "$hyb" $(base hybrid "$tmp/nn2") -rw_nn_weights "$tmp/nn/h.h5" > "$tmp/nn2.txt" 2>&1; then echo "FAIL: softplus weights ran with tanh"; exit 1; fi
grep -qF "Network weights $tmp/nn/h.h5: theta was written for activation \"softplus\" (attribute activation), this network runs -rw_nn_activation tanh: give -rw_nn_activation softplus" "$tmp/nn2.txt" || { grep 'PETSC ERROR' "$tmp/nn2.txt" | head -4; exit 1; }
"$hyb" $(base hybrid "$tmp/nn2") -rw_nn_weights "$tmp/nn/h.h5" -rw_nn_activation softplus > "$tmp/nn3.txt" 2>&1 || { cat "$tmp/nn3.txt"; exit 1; }
echo "ok: weights written for softplus are refused under tanh, and run under softplus"
