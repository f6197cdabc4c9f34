; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x497785 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x526219 (= ?x497785 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x168516 (>= n 1)))
(and $x168516 (or (and (distinct true true) true) (and true (not $x526219))))))))
(check-sat)
