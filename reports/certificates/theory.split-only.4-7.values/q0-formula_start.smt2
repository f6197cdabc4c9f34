; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x336242 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x542486 (= ?x336242 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x395497 (>= n 1)))
(and $x395497 (or (and (distinct true true) true) (and true (not $x542486))))))))
(check-sat)
