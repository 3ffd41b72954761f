#include "scheduler/core/abstract_program.h"

namespace jsched::sched {

namespace {

// Locks and variables live in separate id ranges of the model's object space.
ObjectId lock_id(uint32_t l) {
  return 0x10000 + l;
}
ObjectId var_id(uint32_t v) {
  return 0x20000 + v;
}

Op access(bool write, uint32_t v) {
  Op o = Op::variable(write, var_id(v), 0);
  o.var = var_id(v);
  return o;
}

Op to_op(const AbstractOp& a) {
  switch (a.kind) {
    case AbstractOp::Write:
    case AbstractOp::Increment:
      return access(true, a.var);
    case AbstractOp::Check:
    case AbstractOp::Load:
    case AbstractOp::Read:
      return access(false, a.var);
    case AbstractOp::Lock:
      return Op::monitor(OpKind::Enter, lock_id(a.var));
    case AbstractOp::Notify:
      return Op::monitor(OpKind::Notify, lock_id(a.var));
    case AbstractOp::NotifyAll:
      return Op::monitor(OpKind::NotifyAll, lock_id(a.var));
    default:
      return Op::of(OpKind::Yield);
  }
}

// A HaPSet statement: each abstract thread has code of its own.
uint64_t statement(ThreadId t, size_t site) {
  return (uint64_t(t) << 32) | site;
}

}  // namespace

uint64_t abstract_variable(uint32_t v) {
  return var_id(v);
}

AbstractRun run_abstract(const AbstractProgram& p, Strategy& strategy, HapsetLearner* learner) {
  Model model(strategy);
  model.learn_hapsets(learner);
  if (learner) learner->next_execution();
  ThreadId root = model.add_main();
  std::vector<ThreadId> ids;
  for (size_t i = 0; i < p.threads.size(); ++i) {
    ThreadId t = model.spawn(root);
    model.started(root, t);
    ids.push_back(t);
  }
  model.end(root);
  std::vector<size_t> pc(model.thread_count(), 0);
  std::vector<int64_t> vars(p.variables, 0);
  std::vector<std::vector<int64_t>> regs(model.thread_count(), std::vector<int64_t>(8, 0));
  AbstractRun run;

  // Brings thread t (running, about to execute program op pc[t]) to its next scheduling
  // point: Unlock and Wait take effect on arrival, End when the program is done.
  auto advance = [&](ThreadId t) {
    const std::vector<AbstractOp>& prog = p.threads[t - 1];
    while (pc[t] < prog.size()) {
      const AbstractOp& a = prog[pc[t]];
      if (a.kind == AbstractOp::Unlock) {
        model.release(t, lock_id(a.var));
        ++pc[t];
        if (!p.release_points) continue;
        Op cont = Op::of(OpKind::Continue);
        cont.site = int32_t(pc[t]);
        model.arrive(t, cont);
        return;
      }
      if (a.kind == AbstractOp::Wait) {
        ++pc[t];
        if (model.wait(t, lock_id(a.var), false, int32_t(pc[t]), statement(t, pc[t]))) return;
        continue;
      }
      if (a.kind == AbstractOp::Assert) {  // local: no scheduling point
        if (!a.predicate(regs[t])) run.bug = true;
        ++pc[t];
        continue;
      }
      Op op = to_op(a);
      op.site = int32_t(pc[t] + 1);
      op.where = statement(t, pc[t] + 1);
      model.arrive(t, op);
      return;
    }
    model.end(t);
  };
  // Abstract threads have no Begin step: each statement is one transition, as in the models
  // of Sen's and Bindal et al.'s papers (docs/references.md), so the first statement is pending
  // from the start.
  for (ThreadId t : ids) advance(t);

  while (auto t = model.step()) {
    const ThreadState& ts = model.thread(*t);
    Op done = ts.pending;
    if (done.kind == OpKind::Begin || done.kind == OpKind::Reacquire ||
        done.kind == OpKind::Continue || ts.pending.kind == OpKind::Wait) {
      advance(*t);
      continue;
    }
    const AbstractOp& a = p.threads[*t - 1][pc[*t]];
    if (a.kind == AbstractOp::Write) vars[a.var] = a.value;
    if (a.kind == AbstractOp::Increment) ++vars[a.var];
    if (a.kind == AbstractOp::Load) regs[*t][size_t(a.value)] = vars[a.var];
    if (to_op(a).var != 0) ++run.accesses[a.var];
    if (a.kind == AbstractOp::Check && vars[a.var] == a.value) {
      run.bug = true;
      break;
    }
    ++pc[*t];
    advance(*t);
    if (run.bug) break;
  }
  run.deadlock = !run.bug && model.deadlocked();
  run.steps = model.steps();
  run.fingerprint = model.fingerprint().hex();
  if (learner) learner->end_execution(!run.bug && !run.deadlock);
  return run;
}

}  // namespace jsched::sched
