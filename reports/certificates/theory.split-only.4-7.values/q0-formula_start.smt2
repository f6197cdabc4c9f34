; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x305392 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x10426 (= ?x305392 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x232282 (>= n 1)))
(and $x232282 (or (and (distinct true true) true) (and true (not $x10426))))))))
(check-sat)
